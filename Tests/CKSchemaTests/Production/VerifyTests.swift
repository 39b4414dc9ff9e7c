import Foundation
import Testing
import CKSchema

/// `ckschema reset`, `ckschema verify` and the Console guide of `promote --format markdown`,
/// through the built binary against the stand-in `xcrun cktool`.
@Suite struct VerifyTests {
    @Test func resetSaysWhatItDeletesAndNeedsYes() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let warning = "resetting the development environment of iCloud.com.example.Notes: its schema becomes production's, and every record in development is deleted"
        let refused = try s.run(["reset", "--env", "development"])
        #expect(refused.code == 2)
        #expect(refused.stderr.hasPrefix("ckschema reset: error: \(warning); pass --yes to reset\n"), "\(refused.stderr)")
        let production = try s.run(["reset", "--env", "production", "--yes"])
        #expect(production.code == 2 && production.stderr.contains("CloudKit cannot reset production"), "\(production.stderr)")
        let noEnv = try s.run(["reset", "--yes"])
        #expect(noEnv.code == 2 && noEnv.stderr.contains("reset needs --env development"))
        #expect(s.order() == [], "nothing reaches cktool unless asked for with --yes")

        let r = try s.run(["reset", "--env", "development", "--yes"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr == warning + "\n")
        #expect(r.stdout == "reset the development environment of iCloud.com.example.Notes to production\n")
        #expect(s.order() == ["reset-schema"])
        #expect(try s.arguments(1) == ["reset-schema", "--team-id", "ABCDE12345", "--container-id", "iCloud.com.example.Notes"])
        #expect(try s.environment(1).contains("CLOUDKIT_MANAGEMENT_TOKEN=\(CKToolStandIn.token)\n"))

        try s.play("reset-schema", "echo 'Error: not authorized' >&2; exit 1")
        let failed = try s.run(["reset", "--env", "development", "--yes"])
        #expect(failed.code == 2 && failed.stderr.contains("cktool reset-schema failed (exit 1): Error: not authorized [CK802]"), "\(failed.stderr)")
    }

    /// The development schema as cktool would export it after a deploy.
    static func deployed(_ s: CKToolStandIn) throws -> String {
        try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout
    }

    @Test func verifyPassesWhenProductionHasThePlanAndUpdatesTheBaseline() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: s.repo).code == 0)
        let live = try Self.deployed(s)
        try s.live("production", live)
        let r = try s.run(["verify", "--env", "production", "--plan", "plan.json"])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "the production environment of iCloud.com.example.Notes has every planned change (5 checked, 2 not visible through cktool)\n", "\(r.stdout)")
        #expect(s.order() == ["export-schema"])
        #expect(Array(try s.arguments(1).prefix(7)) == ["export-schema", "--team-id", "ABCDE12345", "--container-id", "iCloud.com.example.Notes", "--environment", "production"])

        // Without a plan: the plan from the committed baseline to the development schema.
        let noPlan = try s.run(["verify", "--update"])
        #expect(noPlan.code == 0, "\(noPlan.stderr)")
        #expect(noPlan.stdout.hasSuffix("wrote the production export to Schemas/production.ckdb\n"), "\(noPlan.stdout)")
        #expect(try read(s.repo + "/Schemas/production.ckdb") == live)
        // The baseline now holds the deploy, so the plan file is stale and refused.
        let stale = try s.run(["verify", "--plan", "plan.json"])
        #expect(stale.code == 2 && stale.stderr.contains("is stale") && stale.stderr.contains("[CK392]"), "\(stale.stderr)")
    }

    @Test func verifyFailsNamingAPlannedFieldProductionLacks() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: s.repo).code == 0)
        let live = try Self.deployed(s).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("createdOn ") }.joined(separator: "\n")
        try s.live("production", live)
        let before = try read(s.repo + "/Schemas/production.ckdb")
        let r = try s.run(["verify", "--env", "production", "--plan", "plan.json", "--update"])
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("Schemas/development.yaml:16:7: error: production does not have the planned change '+ Note.createdOn timestamp [queryable, sortable]' [CK811]\n"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("ckschema verify: failed: 1 error, 0 warnings\n"), "one change, the field with its indexes: \(r.stdout)")
        #expect(try read(s.repo + "/Schemas/production.ckdb") == before, "--update writes nothing when verify fails")
    }

    /// Issue 30: one plan-binding function. A plan whose steps were edited, cut or added is
    /// refused by `verify --plan` with exactly the CK393 diagnostic `promote --apply` gives, before
    /// cktool runs, and with `--update` the export is not rewritten.
    @Test func verifyRefusesAPlanWithEditedStepsExactlyAsPromoteApplyDoes() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        #expect(try s.run(["promote", "--plan", "plan.json"]).code == 0)
        try s.live("production", try Self.deployed(s))
        let written = try read(s.repo + "/plan.json")
        let plan = try PromotionPlan.load(path: s.repo + "/plan.json")
        #expect(plan.steps.count == 7)
        // Digests recomputed, as a careful hand would: only the steps themselves give it away.
        var reclassed = plan
        reclassed.steps[1].changeClass = .review
        var cut = plan
        cut.steps.removeLast()
        var added = plan
        added.steps.append(plan.steps[0])
        let cases: [(String, String, [String])] = [
            ("edited by hand", written.replacingOccurrences(of: "\"class\": \"safe\"", with: "\"class\": \"review\""), [
                "plan.json:1:1: error: 'plan.json' was edited after it was written: its steps no longer match its stepsSha256",
                "plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: step 1 is '+ zone Notes private [fetchChanges, atomic]' (review, CK300), but the schemas give '+ zone Notes private [fetchChanges, atomic]' (safe, CK300) [CK393]",
            ]),
            ("edited", String(decoding: reclassed.jsonData, as: UTF8.self), [
                "plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: step 2 is '+ record type Note in zone Notes' (review, CK300), but the schemas give '+ record type Note in zone Notes' (safe, CK300) [CK393]",
            ]),
            ("cut", String(decoding: cut.jsonData, as: UTF8.self), [
                "plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: it has 6 steps and the schemas give 7; the first it lacks is step 7, '+ query notesByDate' [CK393]",
            ]),
            ("added", String(decoding: added.jsonData, as: UTF8.self), [
                "plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: it has 8 steps and the schemas give 7; step 8, '+ zone Notes private [fetchChanges, atomic]', is not a change between them [CK393]",
            ]),
        ]
        for (what, text, lines) in cases {
            try s.write("plan.json", text)
            let before = try s.snapshot()
            let verify = try s.run(["verify", "--env", "production", "--plan", "plan.json", "--update"])
            #expect(try s.snapshot() == before, "\(what): verify wrote nothing, the export least of all")
            #expect(s.order() == [], "\(what): a refused plan never reaches cktool")
            let apply = try s.run(["promote", "--apply", "plan.json"])
            #expect(apply.code == 1 && verify.code == 1, "\(what): \(apply.stderr)\(verify.stderr)")
            #expect(apply.stderr == "" && verify.stderr == "", "\(what): \(apply.stderr)\(verify.stderr)")
            #expect(verify.stdout == apply.stdout.replacingOccurrences(of: "ckschema promote: failed", with: "ckschema verify: failed"), "\(what): \(verify.stdout)")
            #expect(apply.stdout.hasSuffix("ckschema promote: failed: \(lines.count) error\(lines.count == 1 ? "" : "s"), 0 warnings\n"), "\(what): \(apply.stdout)")
            for line in lines { #expect(verify.stdout.contains(line), "\(what): \(verify.stdout)") }
            // The same plan through promote --verify-plan: the same words again.
            let check = try s.run(["promote", "--verify-plan", "plan.json"])
            #expect(check.code == 1 && check.stdout == apply.stdout, "\(what): \(check.stdout)")
        }
    }

    /// Issue 35 point 5: a plan is bound whole. A step cut from the file's text, a step's
    /// `text` reworded, the `summary` changed, each with its `stepsSha256` recomputed as a
    /// careful hand would: `verify --plan --update` refuses each with CK393, as `promote
    /// --verify-plan` does, before cktool runs, and the repository is unchanged byte for byte.
    @Test func verifyRefusesAPlanWhoseTextOrSummaryWasEdited() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        #expect(try s.run(["promote", "--plan", "plan.json"]).code == 0)
        // Production has every change: a plan that passed binding would pass and rewrite the export.
        try s.live("production", try Self.deployed(s))
        let written = try read(s.repo + "/plan.json")
        #expect(written.contains("\n  \"version\": 3\n"), "\(written)")
        /// The file with its stepsSha256 set to what its edited steps and summary hash to.
        func rehashed(_ text: String) throws -> String {
            let hash = try #require(try PromotionPlan.decode(Data(text.utf8), file: "plan.json").writtenForm).hash
            let old = try #require(text.range(of: #""stepsSha256" ?: "[0-9a-f]{64}""#, options: .regularExpression))
            return text.replacingCharacters(in: old, with: "\"stepsSha256\": \"\(hash)\"")
        }
        let writtenHash = String(written[try #require(written.range(of: #"(?<="stepsSha256": ")[0-9a-f]{12}"#, options: .regularExpression))])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        var steps = try #require(object["steps"] as? [Any])
        steps.remove(at: 2)
        object["steps"] = steps
        let cut = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self)
        let worded = written.replacingOccurrences(of: #""text": "+ record type Note in zone Notes""#, with: #""text": "+ record type Note in zone Notes (no other change)""#)
        let summary = written.replacingOccurrences(of: #""safe": 7"#, with: #""safe": 6"#)
        #expect(worded != written && summary != written)
        let cases: [(String, String, String)] = [
            ("cut", try rehashed(cut), "step 3 is '+ Note.body string encrypted' (safe, CK300), but the schemas give '+ index Note.recordName queryable' (safe, CK300)"),
            ("text", try rehashed(worded), "step 2 reads '+ record type Note in zone Notes (no other change)', but the schemas give '+ record type Note in zone Notes'"),
            ("text, hash left", worded, "step 2 reads '+ record type Note in zone Notes (no other change)', but the schemas give '+ record type Note in zone Notes'"),
            ("summary", try rehashed(summary), "its summary says 6 safe, 0 review, 0 forbidden, but the steps give 7 safe, 0 review, 0 forbidden"),
        ]
        for (what, text, words) in cases {
            try s.write("plan.json", text)
            let before = try s.snapshot()
            let verify = try s.run(["verify", "--env", "production", "--plan", "plan.json", "--update"])
            #expect(try s.snapshot() == before, "\(what): verify --update wrote nothing")
            #expect(s.order() == [], "\(what): a refused plan never reaches cktool")
            let stale = what == "text, hash left"
                ? "plan.json:1:1: error: 'plan.json' was edited after it was written: its steps no longer match its stepsSha256 (\(writtenHash) in the plan, \(String(try #require(try PromotionPlan.decode(Data(text.utf8), file: "plan.json").writtenForm).hash.prefix(12))) for its steps and summary) [CK393]\n"
                    + "plan.json:1:1: note: compute the plan again and review it: `ckschema promote --plan plan.json`; never edit a plan by hand\n"
                : ""
            let errors = stale.isEmpty ? 1 : 2
            #expect(verify.code == 1, "\(what): \(verify.stdout)\(verify.stderr)")
            #expect(verify.stderr == "", "\(what): \(verify.stderr)")
            #expect(verify.stdout == stale
                    + "plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: \(words) [CK393]\n"
                    + "plan.json:1:1: note: compute the plan again and review it: `ckschema promote --plan plan.json`; never edit a plan by hand\n"
                    + "ckschema verify: failed: \(errors) error\(errors == 1 ? "" : "s"), 0 warnings\n", "\(what): \(verify.stdout)")
            let check = try s.run(["promote", "--verify-plan", "plan.json"])
            #expect(check.code == 1 && check.stdout == verify.stdout.replacingOccurrences(of: "ckschema verify: failed", with: "ckschema promote: failed"), "\(what): \(check.stdout)")
            let apply = try s.run(["promote", "--apply", "plan.json"])
            #expect(apply.code == 1 && apply.stdout == check.stdout, "\(what): \(apply.stdout)")
        }
        // The plan as written is bound: it passes and --update writes the export.
        try s.write("plan.json", written)
        let bound = try s.run(["verify", "--env", "production", "--plan", "plan.json", "--update"])
        #expect(bound.code == 0 && bound.stdout.hasSuffix("wrote the production export to Schemas/production.ckdb\n"), "\(bound.stdout)\(bound.stderr)")
    }

    /// A plan of the version before (2) is refused with CK391, saying what it lacked.
    @Test func aVersionTwoPlanIsRefusedSayingWhatItDidNotBind() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        #expect(try s.run(["promote", "--plan", "plan.json"]).code == 0)
        let written = try read(s.repo + "/plan.json")
        try s.write("plan.json", written.replacingOccurrences(of: "\n  \"version\": 3\n", with: "\n  \"version\": 2\n"))
        let before = try s.snapshot()
        let verify = try s.run(["verify", "--plan", "plan.json", "--update"])
        #expect(verify.code == 2 && verify.stdout == "", "\(verify.stdout)")
        #expect(verify.stderr == "plan.json:1:1: error: 'plan.json' is version 2 of the plan format, whose stepsSha256 binds neither each step's text nor the summary; this ckschema reads version 3, which binds every member a reviewer reads [CK391]\n"
                + "plan.json:1:1: note: compute the plan again with this version of ckschema: `ckschema promote --plan plan.json`\n", "\(verify.stderr)")
        #expect(try s.snapshot() == before && s.order() == [])
    }

    /// `verify` reads ckschema.yaml's `promote:` settings as promote does: the plan it computes
    /// without `--plan` is classed by them, and a `--plan` file is bound with them.
    @Test func verifyAppliesThePromoteSettingsAsPromoteDoes() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        // Production has Note already, without the sortable index on createdOn: adding it is CK311.
        let deployed = try Self.deployed(s)
        let production = deployed.replacingOccurrences(of: "createdOn       TIMESTAMP QUERYABLE SORTABLE", with: "createdOn       TIMESTAMP QUERYABLE")
        #expect(production != deployed)
        try s.write("Schemas/production.ckdb", production)
        try s.live("production", production)
        let plain = try s.run(["verify"])
        #expect(plain.code == 1, "\(plain.stdout)")
        #expect(plain.stdout.contains("error: production does not have the planned change '+ index Note.createdOn sortable' [CK811]"), "\(plain.stdout)")
        // A team that refuses indexes on deployed types: the step is forbidden, so it is not a
        // change the deploy carried out, for verify as for promote --apply.
        let config = try read(s.repo + "/ckschema.yaml")
        try s.write("ckschema.yaml", config + "promote:\n  severity: { CK311: error }\n")
        let promote = try s.run(["promote", "--plan", "plan.json"])
        #expect(promote.code == 1 && promote.stdout.contains("error: adds a sortable index on 'Note.createdOn'"), "\(promote.stdout)")
        let configured = try s.run(["verify"])
        #expect(configured.code == 0, "\(configured.stdout)")
        // The plan fills in what the `.ckdb` cannot say (zone, `requires:`, query) from the
        // development schema: its one step is the index (issue 32 point 1).
        #expect(configured.stdout == "the production environment of iCloud.com.example.Notes has every planned change (0 checked)\n")
        // The plan promote wrote with the setting is bound by verify with the same setting...
        #expect(try s.run(["verify", "--plan", "plan.json"]).stdout == configured.stdout)
        // ...and refused by both once ckschema.yaml says otherwise.
        try s.write("ckschema.yaml", config)
        let verify = try s.run(["verify", "--plan", "plan.json"])
        let check = try s.run(["promote", "--verify-plan", "plan.json"])
        #expect(verify.code == 1 && check.code == 1)
        #expect(verify.stdout.hasPrefix("plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: step 1 is '+ index Note.createdOn sortable' (forbidden, CK311), but the schemas give '+ index Note.createdOn sortable' (review, CK311) [CK393]\n"), "\(verify.stdout)")
        #expect(verify.stdout == check.stdout.replacingOccurrences(of: "ckschema promote: failed", with: "ckschema verify: failed"), "\(verify.stdout)")
    }

    @Test func verifyFailsOnAFieldProductionHasInAnotherType() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let live = try Self.deployed(s).replacingOccurrences(of: "title           STRING QUERYABLE SEARCHABLE SORTABLE", with: "title           INT64 QUERYABLE SORTABLE")
        try s.live("production", live)
        let r = try s.run(["verify"])
        #expect(r.code == 1)
        #expect(r.stdout.contains("Schemas/development.yaml:14:7: error: production differs from the planned change '+ Note.title string [queryable, searchable, sortable]': from production to the plan is still '~ Note.title type: int64 -> string' [CK811]"), "\(r.stdout)")
    }

    @Test func aPlanStepTheExportCannotShowIsCountedNotReported() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.live("production", try Self.deployed(s))
        let r = try s.run(["verify", "--format", "github"])
        #expect(r.code == 0, "\(r.stdout)")
        #expect(r.stdout.contains("(5 checked, 2 not visible through cktool)"), "a zone and a declared query: \(r.stdout)")
    }

    @Test func promoteMarkdownGuidesTheConsoleDeploy() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let r = try runCLI(["promote", "--plan", "plan.json", "--format", "markdown"], cwd: s.repo)
        #expect(r.code == 0, "\(r.stderr)")
        let guide = """
            ### Deploy in CloudKit Console

            1. Sign in to CloudKit Console (icloud.developer.apple.com) with an account that may edit production.
            2. Open **CloudKit Database** and choose `iCloud.com.example.Notes` at the top.
            3. With the **Development** environment selected, click **Deploy Schema Changes…**.
            4. Compare the dialog's list with the table below, line by line; click **Deploy** only when they agree.
            5. Then prove it: `ckschema verify --env production --plan plan.json`.

            The dialog should list 10 changes:

            | Console section | What it lists |
            |---|---|
            | Record Types | `Note`: new record type |
            | Indexes | `Note.recordName`: new QUERYABLE index |
            | Fields | `Note.body`: new field, `String`, Encrypted |
            | Fields | `Note.createdOn`: new field, `Date/Time` |
            | Indexes | `Note.createdOn`: new QUERYABLE index |
            | Indexes | `Note.createdOn`: new SORTABLE index |
            | Fields | `Note.title`: new field, `String` |
            | Indexes | `Note.title`: new QUERYABLE index |
            | Indexes | `Note.title`: new SEARCHABLE index |
            | Indexes | `Note.title`: new SORTABLE index |

            2 changes are ckschema's own (zones, queries, deprecation, descriptions) and not in the dialog.

            """
        #expect(r.stdout.contains(guide), "\(r.stdout)")
        // A plan production would refuse gets no click path.
        try s.write("Schemas/production.ckdb", "DEFINE SCHEMA\n\n    RECORD TYPE Draft (\n        text STRING\n    );\n")
        let refused = try runCLI(["promote", "--format", "markdown"], cwd: s.repo)
        #expect(refused.stdout.contains("**Do not deploy**: the plan has 1 change(s) production refuses."), "\(refused.stdout)")
        #expect(!refused.stdout.contains("Deploy Schema Changes…"))
    }
}
