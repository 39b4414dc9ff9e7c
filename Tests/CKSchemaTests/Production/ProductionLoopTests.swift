import Foundation
import Testing

/// Issue 32 points 1 and 2: the documented production loop, through the built binary against
/// the stand-in `xcrun cktool`, ends clean round after round. What a `.ckdb` cannot say (the
/// zone `Notes`, `requires:`, the declared query, deprecation) is never a difference between
/// the store's production and the committed export.
@Suite struct ProductionLoopTests {
    /// The development schema as the production export has it after the Console's "Deploy
    /// Schema Changes": what `push` imports, read back by cktool, which keeps no comment (so a
    /// `// DEPRECATED` marker does not survive).
    static func consoleDeploy(_ s: CKToolStandIn) throws {
        let export = try runCLI(["export", "--format", "ckdb"], cwd: s.repo)
        #expect(export.code == 0, "\(export.stderr)")
        let text = export.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        try s.live("production", text)
    }

    /// Replaces `from` with `to` in the development schema.
    static func edit(_ s: CKToolStandIn, _ from: String, _ to: String) throws {
        let path = s.repo + "/Schemas/development.yaml"
        let text = try read(path)
        #expect(text.contains(from), "\(text)")
        try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: URL(fileURLWithPath: path))
    }

    /// One round: `migrate new`, `migrate apply`, `promote --plan`, `promote --apply`, `push --yes`,
    /// the Console deploy, `verify --env production --plan plan.json --update`; then `check`,
    /// `migrate status` and `migrate status --env production` exit 0 with no CK53x finding.
    /// Returns what `promote --plan` and `promote --apply` printed (stdout and stderr of each).
    @discardableResult
    static func round(_ s: CKToolStandIn, _ name: String, round: Int) throws -> (plan: CLIResult, apply: CLIResult) {
        var printed: [CLIResult] = []
        for args in [["migrate", "new", name], ["migrate", "apply"], ["promote", "--plan", "plan.json"], ["promote", "--apply", "plan.json"], ["push", "--yes"]] {
            let r = try s.run(args)
            #expect(r.code == 0, "round \(round): \(args.joined(separator: " ")): \(r.stdout)\(r.stderr)")
            if args[0] == "promote" { printed.append(r) }
        }
        try consoleDeploy(s)
        let verify = try s.run(["verify", "--env", "production", "--plan", "plan.json", "--update"])
        #expect(verify.code == 0, "round \(round): verify: \(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.hasSuffix("wrote the production export to Schemas/production.ckdb\n"), "round \(round): \(verify.stdout)")
        for args in [["check"], ["migrate", "status"], ["migrate", "status", "--env", "production"]] {
            let r = try s.run(args)
            #expect(r.code == 0, "round \(round): \(args.joined(separator: " ")): \(r.stdout)\(r.stderr)")
            #expect(!(r.stdout + r.stderr).contains("[CK53"), "round \(round): \(args.joined(separator: " ")): \(r.stdout)\(r.stderr)")
        }
        return (printed[0], printed[1])
    }

    @Test func twoRoundsAndADeprecationEndClean() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        try Self.edit(s, "      createdOn: { type: timestamp, indexes: [queryable, sortable] }\n",
                      "      createdOn: { type: timestamp, indexes: [queryable, sortable] }\n      pinned: { type: int64 }\n")
        // Point 1: from round 2 on the plan lists only the real change, not the zone, the
        // `requires:` and the query the `.ckdb` production file cannot hold.
        let two = try Self.round(s, "add_pinned", round: 2)
        #expect(two.plan.stderr == "wrote plan.json (1 step: 1 safe, 0 review, 0 forbidden)\n", "\(two.plan.stderr)")
        #expect(two.plan.stdout == "Schemas/development.yaml:17:7: note: adds field 'Note.pinned' (int64) [CK300]\n1 note\n", "\(two.plan.stdout)")
        #expect(two.apply.stdout.hasPrefix("deployed the development schema to production in .ckschema/store.sqlite (1 change, schema only; records untouched)\n  + Note.pinned int64\nproduction schema "), "\(two.apply.stdout)")
        try Self.edit(s, "      pinned: { type: int64 }\n", "      pinned: { type: int64, deprecated: true }\n")
        let three = try Self.round(s, "deprecate_pinned", round: 3)
        #expect(three.plan.stderr == "wrote plan.json (1 step: 1 safe, 0 review, 0 forbidden)\n", "\(three.plan.stderr)")
        #expect(three.plan.stdout == "Schemas/development.yaml:17:7: note: deprecates field 'Note.pinned'; it stays in production [CK300]\n1 note\n", "\(three.plan.stdout)")
        // The store's production kept the zone the export cannot hold, and every migration.
        let status = try s.run(["migrate", "status", "--env", "production"])
        let lines = status.stdout.split(separator: "\n").map(String.init)
        for m in ["0001_initial", "0002_add_pinned", "0003_deprecate_pinned"] {
            #expect(lines.contains { $0.hasPrefix("  \(m) ") && $0.contains(" applied ") }, "\(m): \(status.stdout)")
        }
        #expect(!status.stdout.contains("pending"), "\(status.stdout)")
    }

    /// Point 1: the store and the export differ only in what a `.ckdb` cannot say: no note.
    /// A real difference (a field the export has and the store does not) still is one.
    @Test func aRealDifferenceIsStillANoteWithoutTheZoneNoise() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        let export = try read(s.repo + "/Schemas/production.ckdb")
        try s.write("Schemas/production.ckdb", export.replacingOccurrences(of: "        title ", with: "        extra INT64,\n        title "))
        let status = try s.run(["migrate", "status"])
        #expect(status.code == 0)
        #expect(status.stdout.contains("store -> Schemas/production.ckdb: + Note.extra int64 [CK536]"), "\(status.stdout)")
        #expect(!status.stdout.contains("zone Notes") && !status.stdout.contains("requires"), "\(status.stdout)")
    }

    /// Point 2: the baseline of an app with zones keeps them, from the development schema, so
    /// replaying it gives the development schema: `check` and `migrate status` end clean.
    @Test func aBaselineKeepsTheZonesTheExportCannotHold() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.consoleDeploy(s)
        let pull = try s.run(["pull", "--env", "production", "-o", "Schemas/production.ckdb"])
        #expect(pull.code == 0, "\(pull.stdout)\(pull.stderr)")
        let baseline = try s.run(["migrate", "baseline"])
        #expect(baseline.code == 0, "\(baseline.stdout)\(baseline.stderr)")
        let text = try read(s.repo + "/Migrations/0001_baseline.yaml")
        #expect(text.contains("addZone: { name: Notes, database: private, capabilities: [fetchChanges, atomic] }"), "\(text)")
        #expect(text.contains("zone: Notes") && text.contains("requires: [fetchChanges]"), "\(text)")
        for args in [["check"], ["migrate", "status"], ["migrate", "status", "--env", "production"]] {
            let r = try s.run(args)
            #expect(r.code == 0, "\(args.joined(separator: " ")): \(r.stdout)\(r.stderr)")
            #expect(!(r.stdout + r.stderr).contains("[CK53"), "\(args.joined(separator: " ")): \(r.stdout)\(r.stderr)")
        }
    }

    /// Point 2: advice is never destructive. When no prefix of the migrations builds the
    /// production file, the fix names the files `migrate baseline --force` would delete.
    @Test func theBaselineAdviceNamesWhatForceWouldDelete() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        try s.write("Schemas/production.ckdb", "DEFINE SCHEMA\n\n    RECORD TYPE Other (\n        text STRING\n    );\n")
        let status = try s.run(["migrate", "status"])
        #expect(status.code == 0)
        #expect(status.stdout.contains("note: no prefix of the migrations builds it: write the migrations that build it; `ckschema migrate baseline --force` would instead delete the 1 migration file (0001_initial.yaml) and the store's histories, and replace them with one baseline of production\n"), "\(status.stdout)")
    }
    /// Point 1: `verify --update` and `pull` write the export and nothing else: what
    /// ckschema.yaml and the YAML say about zones is kept, and the next plan, computed
    /// against the export, still knows the zone (it lists nothing).
    @Test func verifyUpdateAndPullKeepWhatTheYAMLSaysOfZones() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let config = try read(s.repo + "/ckschema.yaml"), dev = try read(s.repo + "/Schemas/development.yaml")
        try Self.round(s, "initial", round: 1)
        let pull = try s.run(["pull", "--env", "production", "-o", "Schemas/production.ckdb"])
        #expect(pull.code == 0, "\(pull.stdout)\(pull.stderr)")
        #expect(try read(s.repo + "/ckschema.yaml") == config)
        #expect(try read(s.repo + "/Schemas/development.yaml") == dev)
        #expect(try read(s.repo + "/Schemas/production.ckdb") == (try read(s.root + "/live-production.ckdb")))
        let plan = try s.run(["promote", "--plan", "again.json"])
        #expect(plan.code == 0)
        #expect(plan.stderr == "wrote again.json (0 steps: 0 safe, 0 review, 0 forbidden)\n", "\(plan.stderr)")
        #expect(plan.stdout == "", "\(plan.stdout)")
    }

    /// Point 4: a promotion with no change keeps the production hash, and says so.
    @Test func aPromotionWithNoChangeKeepsTheProductionHash() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let one = try Self.round(s, "initial", round: 1)
        let hash = try #require(one.apply.stdout.split(separator: "\n").last?.split(separator: " ").last.map(String.init), "\(one.apply.stdout)")
        let plan = try s.run(["promote", "--plan", "again.json"])
        #expect(plan.code == 0 && plan.stderr == "wrote again.json (0 steps: 0 safe, 0 review, 0 forbidden)\n", "\(plan.stderr)")
        let apply = try s.run(["promote", "--apply", "again.json"])
        #expect(apply.code == 0)
        #expect(apply.stdout == "production in .ckschema/store.sqlite already has the development schema: nothing deployed; production schema \(hash) (unchanged)\n", "\(apply.stdout)")
        for args in [["check"], ["migrate", "status", "--env", "production"]] {
            let r = try s.run(args)
            #expect(r.code == 0 && !r.stdout.contains("[CK53"), "\(args): \(r.stdout)\(r.stderr)")
        }
    }
    /// Point 2: the refusal of a baseline where migrations exist names what `--force` would
    /// throw away (the files and the histories), before anyone passes it; nothing is written.
    @Test func aBaselineRefusalNamesWhatForceWouldThrowAway() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        let before = try s.snapshot()
        let baseline = try s.run(["migrate", "baseline"])
        #expect(baseline.code == 2)
        #expect(baseline.stdout == "")
        #expect(baseline.stderr == """
            Migrations:1:1: error: a baseline must be the first migration, and there is already 0001_initial.yaml, the store's production history (1 migration), the store's development history (1 migration); nothing was written [CK537]
            Migrations:1:1: note: keep these migrations (`ckschema migrate apply --env production --to N` records the ones production has); `--force` would delete the 1 migration file (0001_initial.yaml) and forget the store's production and development histories, and replace them with one baseline of production

            """, "\(baseline.stderr)")
        #expect(try s.snapshot() == before)
    }

    /// Issue 32 point 8: CK303 (a retype) names the data step that works, as the migration line
    /// to paste; pasted into the migration `migrate new` writes, it applies and fills the new field.
    @Test func theRetypeAdviceIsAMigrationLineThatApplies() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let createdOn = "      createdOn: { type: timestamp, indexes: [queryable, sortable] }\n"
        try Self.edit(s, createdOn, createdOn + "      rating: { type: double }\n")
        try Self.round(s, "initial", round: 1)
        try Data(#"{"recordName":"n1","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"a","type":"STRING"},"rating":{"value":4.5,"type":"DOUBLE"}}}"#.utf8 + [10])
            .write(to: URL(fileURLWithPath: s.repo + "/notes.ndjson"))
        let imported = try s.run(["records", "import", "notes.ndjson"])
        #expect(imported.code == 0, "\(imported.stdout)\(imported.stderr)")
        try Self.edit(s, "      rating: { type: double }\n", "      rating: { type: string }\n")
        let step = #"- backfill: { recordType: Note, field: ratingV2, expression: "'' || rating" }"#
        let fix = "note: keep 'rating' as double and mark it `deprecated: true`, add a string field 'ratingV2' to the schema instead of changing the type; `ckschema migrate new` writes its addField, then add the data step that fills it to that migration: `\(step)`\n"
        let check = try s.run(["promote", "--check"])
        #expect(check.code == 1)
        #expect(check.stdout == "Schemas/development.yaml:17:7: error: field 'Note.rating' is double in production and cannot change type to string [CK303]\nSchemas/development.yaml:17:7: \(fix)ckschema promote: failed: 1 error, 0 warnings\n", "\(check.stdout)")
        let refused = try s.run(["migrate", "new", "retype"])
        #expect(refused.code == 2)
        #expect(refused.stderr.contains(fix), "\(refused.stderr)")
        // Follow the advice word for word.
        try Self.edit(s, "      rating: { type: string }\n", "      rating: { type: double, deprecated: true }\n      ratingV2: { type: string }\n")
        let new = try s.run(["migrate", "new", "retype"])
        #expect(new.code == 0, "\(new.stdout)\(new.stderr)")
        let file = s.repo + "/Migrations/0002_retype.yaml"
        try Data((try read(file) + "  \(step)\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(try s.run(["migrate", "hash"]).code == 0)
        let apply = try s.run(["migrate", "apply"])
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let query = try s.run(["query", "Note", "--format", "text"])
        #expect(query.code == 0, "\(query.stderr)")
        #expect(query.stdout.contains(#"ratingV2="4.5""#), "\(query.stdout)")
    }

    /// Issue 32 point 8: CK304 (encrypting a deployed field) and CK305 (decrypting one) give the
    /// field to declare and, where a data step can fill it, the migration line to paste; `migrate
    /// new` refuses with the same fix. Followed word for word, the migration applies and the copy
    /// is in the new encrypted field; the copy CK305's fix does not offer is refused (CK517).
    @Test func theEncryptionAdviceIsTheLinesThatApply() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let createdOn = "      createdOn: { type: timestamp, indexes: [queryable, sortable] }\n"
        try Self.edit(s, createdOn, createdOn + "      summary: { type: string }\n")
        try Self.round(s, "initial", round: 1)
        try Data(#"{"recordName":"n1","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"a","type":"STRING"},"summary":{"value":"s","type":"STRING"}}}"#.utf8 + [10])
            .write(to: URL(fileURLWithPath: s.repo + "/notes.ndjson"))
        let imported = try s.run(["records", "import", "notes.ndjson"])
        #expect(imported.code == 0, "\(imported.stdout)\(imported.stderr)")
        try Self.edit(s, "      summary: { type: string }\n", "      summary: { type: string, encrypted: true }\n")
        try Self.edit(s, "      body: { type: string, encrypted: true }\n", "      body: { type: string }\n")
        let encrypted = "summaryEncrypted: { type: string, encrypted: true }", plain = "bodyPlain: { type: string }"
        let step = "- copy: { recordType: Note, from: summary, to: summaryEncrypted }"
        let encryptFix = "note: keep 'summary' unencrypted and mark it `deprecated: true`, add the field `\(encrypted)` to 'Note' in the schema instead of encrypting 'summary'; `ckschema migrate new` writes its addField, then add the data step that fills it to that migration: `\(step)`\n"
        let decryptFix = "note: keep 'body' encrypted and mark it `deprecated: true`, add the field `\(plain)` to 'Note' in the schema instead of decrypting 'body'; `ckschema migrate new` writes its addField; no data step copies an encrypted field into a plaintext one (it would expose the values), so the app reads 'body' and writes 'bodyPlain'\n"
        let check = try s.run(["promote", "--check"])
        #expect(check.code == 1)
        #expect(check.stdout == """
            Schemas/development.yaml:15:7: error: field 'Note.body' is encrypted in production and cannot stop being encrypted [CK305]
            Schemas/development.yaml:15:7: \(decryptFix)Schemas/development.yaml:17:7: error: field 'Note.summary' already exists in production and cannot become encrypted; CloudKit encrypts only new fields [CK304]
            Schemas/development.yaml:17:7: \(encryptFix)ckschema promote: failed: 2 errors, 0 warnings

            """, "\(check.stdout)")
        let refused = try s.run(["migrate", "new", "encryption"])
        #expect(refused.code == 2)
        #expect(refused.stderr.contains(encryptFix) && refused.stderr.contains(decryptFix), "\(refused.stderr)")
        // Follow the advice word for word: the old fields kept and deprecated, the new ones declared.
        try Self.edit(s, "      summary: { type: string, encrypted: true }\n", "      summary: { type: string, deprecated: true }\n      \(encrypted)\n")
        try Self.edit(s, "      body: { type: string }\n", "      body: { type: string, encrypted: true, deprecated: true }\n      \(plain)\n")
        let new = try s.run(["migrate", "new", "encryption"])
        #expect(new.code == 0, "\(new.stdout)\(new.stderr)")
        let file = s.repo + "/Migrations/0002_encryption.yaml"
        let written = try read(file)
        // The copy CK305's fix does not offer is refused: it would expose the encrypted values.
        try Data((written + "  - copy: { recordType: Note, from: body, to: bodyPlain }\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(try s.run(["migrate", "hash"]).code == 0)
        let exposed = try s.run(["migrate", "apply"])
        #expect(exposed.code == 2 && exposed.stderr.contains("copying encrypted 'body' into plaintext 'bodyPlain' would expose its values [CK517]"), "\(exposed.stdout)\(exposed.stderr)")
        try Data((written + "  \(step)\n").utf8).write(to: URL(fileURLWithPath: file))
        #expect(try s.run(["migrate", "hash"]).code == 0)
        let apply = try s.run(["migrate", "apply"])
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let query = try s.run(["query", "Note", "--format", "text"])
        #expect(query.code == 0, "\(query.stderr)")
        // The copy is in the encrypted field (text output never shows an encrypted value).
        #expect(query.stdout.hasPrefix(#"Note n1 (Notes) title="a" summary="s" summaryEncrypted=<encrypted>"#), "\(query.stdout)")
        let after = try s.run(["promote", "--check"])
        #expect(after.code == 0, "\(after.stdout)\(after.stderr)")
    }

    /// Issue 32 point 8: `migrate new` for a field production never had says to take it out of
    /// the migration that adds it (not "deprecate it"), at that migration's step; a deployed
    /// field still says to deprecate it.
    @Test func aFieldProductionNeverHadIsTakenOutOfItsMigration() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        let createdOn = "      createdOn: { type: timestamp, indexes: [queryable, sortable] }\n"
        try Self.edit(s, createdOn, createdOn + "      pinned: { type: int64 }\n")
        for args in [["migrate", "new", "add_pinned"], ["migrate", "apply"]] {
            let r = try s.run(args)
            #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        }
        try Self.edit(s, createdOn + "      pinned: { type: int64 }\n", createdOn)
        let r = try s.run(["migrate", "new", "drop_pinned"])
        #expect(r.code == 2)
        #expect(r.stderr == """
            Migrations/0002_add_pinned.yaml:2:5: error: field 'Note.pinned' is gone from the development schema, and production (.ckschema/store.sqlite) never had it: 0002_add_pinned.yaml adds it and is not applied to production [CK540]
            Migrations/0002_add_pinned.yaml:2:5: note: take its `addField` step out of 0002_add_pinned.yaml instead of deprecating it, then run `ckschema migrate hash`; if the development store has applied it, rebuild that store too (docs/migrations.md, "When a migration is wrong")

            """, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.repo + "/Migrations/0003_drop_pinned.yaml"))
        // A field production has: deprecate it.
        try Self.edit(s, createdOn, "")
        let deployed = try s.run(["migrate", "new", "drop_created"])
        #expect(deployed.code == 2)
        #expect(deployed.stderr.contains("is in production and cannot be deleted [CK302]"), "\(deployed.stderr)")
    }

    /// Issue 32 point 8: a schema ckschema.yaml names that does not exist is reported at the line
    /// of ckschema.yaml that names it, by every command that reads it.
    @Test func aMissingSchemaIsReportedWhereCkschemaYamlNamesIt() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let path = s.repo + "/ckschema.yaml"
        let text = try read(path)
        #expect(text.contains("  development: Schemas/development.yaml\n"))
        try Data(text.replacingOccurrences(of: "  development: Schemas/development.yaml\n", with: "  development: Schemas/develop.yaml\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  development:") }.map { $0 + 1 } ?? 0
        for args in [["lint"], ["migrate", "status"], ["migrate", "new", "x"], ["export", "--format", "ckdb"], ["check"]] {
            let r = try s.run(args)
            #expect(r.code == 2, "\(args)")
            // `check` reports in its report, on standard output; the others on standard error.
            #expect((r.stdout + r.stderr).hasPrefix("""
                ckschema.yaml:\(line):16: error: schemas.development names 'Schemas/develop.yaml', which does not exist [CK001]
                ckschema.yaml:\(line):16: note: correct the path here (it is relative to the folder of ckschema.yaml), or create the schema there

                """), "\(args): \(r.stderr)")
        }
    }

    /// Issue 32 point 8: a damaged store says how to rebuild it: what `migrate apply` and
    /// `records import` restore, and what only the store held (which migrations production has).
    @Test func aDamagedStoreSaysHowToRebuildIt() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        for args in [["migrate", "new", "initial"], ["migrate", "apply"]] {
            let r = try s.run(args)
            #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        }
        // Page 1 after its file header (the tables' root page) overwritten: SQLite's "malformed".
        let path = s.repo + "/.ckschema/store.sqlite"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 100..<min(bytes.count, 4096) { bytes[i] = 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try s.run(["migrate", "status"])
        #expect(r.code == 2)
        // The exact output (issue 32's "Done when": every point with exact output).
        #expect(r.stdout == "", "\(r.stdout)")
        #expect(r.stderr == """
            ckschema: error: '.ckschema/store.sqlite' is not a usable SQLite database (database disk image is malformed): it is damaged [CK501]
            ckschema: note: restore '.ckschema/store.sqlite' from a backup, or rebuild it: move it away, run `ckschema migrate apply` (the development schema, from Migrations/) and `ckschema records import FILE` (records, from an NDJSON export or your fixtures); only the store knew which migrations production has: record that again with `ckschema migrate apply --env production --to N`, N being the last migration deployed to production; or point `store:` in ckschema.yaml (or --store) at another store

            """, "\(r.stderr)")
    }

    /// `check`'s scan (and `push`'s gate) read production as `promote --plan` does: the committed
    /// `.ckdb` with what it cannot say (the zone `Notes`) filled in from the store's production.
    @Test func pushAndTheScanReadTheFilledInProduction() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try Self.round(s, "initial", round: 1)
        // The scan: a Note saved in the default zone is outside its type's zone, which only
        // the store's production knows (the .ckdb names no zone).
        try FileManager.default.createDirectory(atPath: s.repo + "/App", withIntermediateDirectories: true)
        try Data("import CloudKit\n\nfunc newNote() -> CKRecord {\n    CKRecord(recordType: \"Note\")\n}\n".utf8).write(to: URL(fileURLWithPath: s.repo + "/App/Notes.swift"))
        try Data((try read(s.repo + "/ckschema.yaml") + "code: [App]\n").utf8).write(to: URL(fileURLWithPath: s.repo + "/ckschema.yaml"))
        let check = try s.run(["check"])
        #expect(check.code == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("App/Notes.swift:4:5: error: ") && check.stdout.contains("[CK904]"), "\(check.stdout)")
        // Saved in its zone, the app is clean.
        try Data("import CloudKit\n\nfunc newNote() -> CKRecord {\n    CKRecord(recordType: \"Note\", zoneID: CKRecordZone.ID(zoneName: \"Notes\"))\n}\n".utf8).write(to: URL(fileURLWithPath: s.repo + "/App/Notes.swift"))
        let clean = try s.run(["check"])
        #expect(clean.code == 0, "\(clean.stdout)\(clean.stderr)")
        // push's gate plans from the same filled-in production (PushCommand); what the .ckdb
        // hides from it (a type's zone) is a review change (CK314), which the gate passes.
        try Self.edit(s, "    zone: Notes\n", "    zone: Other\n")
        try Self.edit(s, "  Notes: { database: private, capabilities: [fetchChanges, atomic] }\n",
                      "  Notes: { database: private, capabilities: [fetchChanges, atomic] }\n  Other: { database: private, capabilities: [fetchChanges, atomic] }\n")
        let promote = try s.run(["promote", "--check"])
        #expect(promote.stdout.contains("moves from zone 'Notes' to zone 'Other'"), "\(promote.stdout)")
        let push = try s.run(["push", "--dry-run", "--offline"])
        #expect(push.code == 0, "\(push.stdout)\(push.stderr)")
    }
}
