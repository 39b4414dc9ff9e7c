import Foundation
import Testing

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
