import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// What trying ckschema as a new user found, each through the built binary: suppression
/// comments, import onto a hand-written schema, SARIF, closing lines, migrations, promote
/// settings, system record types and messages in the source's language.
@Suite struct NewUserCLITests {
    /// A fresh project (`init`) in a temporary folder; the caller removes it.
    func project() throws -> String {
        let dir = try makeTempDir("ckschema-newuser")
        let r = try runCLI(["init", "--container", "iCloud.com.example.Walk"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        return dir
    }

    func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    // MARK: Suppression comments

    /// A trailing comment covers its own line only; a comment alone on its line covers the next.
    @Test func aTrailingSuppressionCoversItsOwnLineOnly() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("""
            ckschema: 1
            recordTypes:
              Legacy:
                fields:
                  a: number  # ckschema-disable CK120: deployed before int64 existed
                  b: number
                  # ckschema-disable CK120: deployed before int64 existed
                  c: number
                  d: number

            """, dir + "/s.yaml")
        let r = try runCLI(["lint", dir + "/s.yaml"])
        let lines = r.stdout.split(separator: "\n").filter { $0.contains("[CK120]") }.map { String($0.split(separator: ":")[1]) }
        #expect(lines == ["6", "9"], "\(r.stdout)")
    }

    // MARK: import -o onto a hand-written schema

    @Test func importMergesIntoAnExistingYAMLSchema() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("""
            # Trailmark's development schema, by hand.
            ckschema: 1
            container: iCloud.com.example.Walk
            zones:
              Journal: { database: private, capabilities: [fetchChanges, atomic] }
            recordTypes:
              Trips:
                zone: Journal
                requires: [fetchChanges]
                description: A hike.
                fields:
                  title: { type: string, description: What the hiker called it. }
                  retired: { type: string, deprecated: true }
              Gone:
                fields:
                  x: string
            queries:
              - { name: byStart, recordType: Trips, filter: [startedAt], sort: [startedAt] }
              - { name: goneQuery, recordType: Gone, filter: [x] }

            """, dir + "/Schemas/development.yaml")
        let r = try runCLI(["import", CKDBPaths.realFixture("trailmark-export-v2.ckdb"), "-o", "Schemas/development.yaml"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr.contains("note: merged into the existing YAML schema"))
        #expect(r.stderr.contains("kept from the file: the container, 1 zone, 1 declared query"))
        #expect(r.stderr.contains("warning: the .ckdb does not have what the file described: field Trips.retired, record type Gone, query goneQuery"))
        let merged = try SchemaSource.load(path: dir + "/Schemas/development.yaml")
        #expect(merged.container == "iCloud.com.example.Walk")
        #expect(merged.zones.map(\.name) == ["Journal"])
        let trips = try #require(merged.recordType(named: "Trips"))
        #expect(trips.zone == "Journal" && trips.requiredCapabilities == [.fetchChanges] && trips.description == "A hike.")
        #expect(trips.field(named: "title")?.description == "What the hiker called it.")
        #expect(trips.field(named: "title")?.indexes == [.queryable, .searchable, .sortable])
        #expect(merged.recordType(named: "Summits") != nil && merged.recordType(named: "Gone") == nil)
        #expect(merged.queries.map { $0.name ?? "" } == ["byStart"])
        #expect(try read(dir + "/Schemas/development.yaml").hasPrefix("# Trailmark's development schema, by hand.\n"))
        #expect(try runCLI(["lint"], cwd: dir).code == 0)
        // --force replaces the file with the .ckdb's schema alone.
        let forced = try runCLI(["import", CKDBPaths.realFixture("trailmark-export-v2.ckdb"), "-o", "Schemas/development.yaml", "--force"], cwd: dir)
        #expect(forced.code == 0)
        let replaced = try SchemaSource.load(path: dir + "/Schemas/development.yaml")
        #expect(replaced.container == nil && replaced.zones.isEmpty && replaced.queries.isEmpty)
    }

    @Test func importRefusesToOverwriteWhatIsNotASchema() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("notes: [this is not a schema\n", dir + "/notes.yaml")
        let r = try runCLI(["import", CKDBPaths.realFixture("minimal.ckdb"), "-o", dir + "/notes.yaml"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("exists and is not a YAML schema ckschema can read, so import will not overwrite it"))
        #expect(try read(dir + "/notes.yaml") == "notes: [this is not a schema\n")
    }

    // MARK: SARIF

    /// GitHub's upload rejects a result without a location, and a placeholder help URI is
    /// worse than none: every result points somewhere, no rule has a made-up URL.
    @Test func sarifResultsAlwaysHaveALocationAndNoPlaceholderURI() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        #expect(try runCLI(["migrate", "apply"], cwd: dir).code == 0)
        // A migration applied and then removed: CK531, a finding that has no file of its own.
        try FileManager.default.removeItem(atPath: dir + "/Migrations/0001_initial.yaml")
        #expect(try runCLI(["migrate", "hash"], cwd: dir).code == 0)
        let r = try runCLI(["check", "--format", "sarif"], cwd: dir)
        #expect(r.code == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.contains { $0["ruleId"] as? String == "CK531" })
        for result in results {
            let locations = try #require(result["locations"] as? [[String: Any]], "\(result)")
            #expect(!locations.isEmpty)
        }
        #expect(!r.stdout.contains("helpUri"))
        #expect(!r.stdout.contains("github.com/ckschema"))
    }

    // MARK: Closing lines

    @Test func gatesPrintAClosingLineAlsoWhenClean() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.code == 0)
        // A fresh project has no migrations and no store yet: the closing line says what ran.
        #expect(check.stdout == "ckschema check: passed (lint, promote): 0 errors, 0 warnings\n", "\(check.stdout)")
        #expect(try runCLI(["lint"], cwd: dir).stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
        let promote = try runCLI(["promote", "--check"], cwd: dir)
        #expect(promote.stdout == "ckschema promote: passed: 0 errors, 0 warnings\n", "\(promote.stdout)")
        let same = try runCLI(["diff", "Schemas/development.yaml", "Schemas/development.yaml", "--exit-code"], cwd: dir)
        #expect(same.code == 0 && same.stdout == "ckschema diff: no differences\n")
    }

    // MARK: Migrations

    @Test func migrateNewWithNothingToMigrateIsANote() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        let again = try runCLI(["migrate", "new", "again"], cwd: dir)
        #expect(again.code == 0)
        #expect(again.stdout.contains("nothing to migrate"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/Migrations/0002_again.yaml"))
    }

    /// Issue 32 point 5: right after `init`, `check` and `migrate status` agree (both clean: a
    /// project with no migration and no store has not started migrations). With pending
    /// migrations both say one thing: how many are pending, and what to run.
    @Test func aFreshProjectAgreesWithItself() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.code == 0 && check.stdout == "ckschema check: passed (lint, promote): 0 errors, 0 warnings\n", "\(check.stdout)")
        let status = try runCLI(["migrate", "status"], cwd: dir)
        #expect(status.code == 0 && status.stdout == "development (no store yet):\n  no migrations\n", "\(status.stdout)")
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        let dev = dir + "/Schemas/development.yaml"
        try write(try read(dev).replacingOccurrences(of: "      createdOn:", with: "      mood: { type: int64 }\n      createdOn:"), dev)
        #expect(try runCLI(["migrate", "new", "mood"], cwd: dir).code == 0)
        let pending = try runCLI(["check"], cwd: dir)
        #expect(pending.code == 0)
        #expect(pending.stdout == """
            Migrations/0001_initial.yaml:1:1: note: 2 migrations (0001_initial.yaml to 0002_mood.yaml) are not yet applied to development [CK532]
            Migrations/0001_initial.yaml:1:1: note: run `ckschema migrate apply --env development`
            ckschema check: passed (lint, promote, migrations): 0 errors, 0 warnings, 1 note

            """, "\(pending.stdout)")
        let json = try runCLI(["migrate", "status", "--format", "json"], cwd: dir)
        #expect(json.stdout.components(separatedBy: "\"CK532\"").count == 2, "\(json.stdout)")
    }

    /// CK533 points at what the migrations lack and suggests `migrate new` only when it works.
    @Test func replayDriftHasALocationAndAFixThatWorks() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        let dev = dir + "/Schemas/development.yaml"
        let text = try read(dev)
        // A new field: `migrate new` can write it.
        try write(text.replacingOccurrences(of: "      createdOn:", with: "      mood: int64\n      createdOn:"), dev)
        let added = try runCLI(["migrate", "status"], cwd: dir)
        let line = try #require(added.stdout.split(separator: "\n").first { $0.contains("[CK533]") })
        #expect(line.hasPrefix("Schemas/development.yaml:"), "\(line)")
        #expect(added.stdout.contains("note: run `ckschema migrate new NAME`"))
        // A retyped field: `migrate new` cannot write it, and the fix says so.
        try write(text.replacingOccurrences(of: "createdOn: { type: timestamp", with: "createdOn: { type: string"), dev)
        let retyped = try runCLI(["migrate", "status"], cwd: dir)
        #expect(retyped.stdout.contains("[CK533]"))
        #expect(!retyped.stdout.contains("run `ckschema migrate new NAME`"), "\(retyped.stdout)")
        #expect(retyped.stdout.contains("`migrate new` cannot write this change as a step"))
        // A field a migration added that the YAML lacks: the schema is behind, nothing to
        // deprecate (issue 25, point 7).
        let line2 = try #require(text.split(separator: "\n").first { $0.hasPrefix("      createdOn:") })
        try write(text.replacingOccurrences(of: line2 + "\n", with: ""), dev)
        let lacking = try runCLI(["migrate", "status"], cwd: dir)
        #expect(lacking.stdout.contains("[CK533]"))
        #expect(!lacking.stdout.contains("deprecated: true"), "\(lacking.stdout)")
        #expect(lacking.stdout.contains("note: a migration adds 'Note.createdOn'; add it to the development schema as `createdOn: { type: timestamp"), "\(lacking.stdout)")
    }

    /// After `promote --apply`, production's history carries the migrations the deployed
    /// schema is made of, so `migrate status --env production` agrees with the deploy.
    @Test func promoteApplyAndMigrateStatusAgree() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        #expect(try runCLI(["migrate", "apply"], cwd: dir).code == 0)
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: dir).code == 0)
        let applied = try runCLI(["promote", "--apply", "plan.json"], cwd: dir)
        #expect(applied.code == 0, "\(applied.stderr)")
        let status = try runCLI(["migrate", "status", "--env", "production"], cwd: dir)
        #expect(status.code == 0, "\(status.stdout)")
        #expect(status.stdout.contains("0001_initial  applied"), "\(status.stdout)")
        #expect(!status.stdout.contains("CK534"))
        #expect(try runCLI(["migrate", "apply", "--env", "production"], cwd: dir).stdout.contains("production is up to date"))
    }

    /// `migrate apply --env production` refuses what `promote` refuses, with promote's code.
    @Test func productionMigrationsGoThroughPromotesRules() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["migrate", "new", "initial"], cwd: dir).code == 0)
        #expect(try runCLI(["migrate", "apply", "--env", "production"], cwd: dir).code == 0)
        try write("steps:\n  - removeField: { recordType: Note, field: body }\n", dir + "/Migrations/0002_drop_body.yaml")
        #expect(try runCLI(["migrate", "hash"], cwd: dir).code == 0)
        let r = try runCLI(["migrate", "apply", "--env", "production"], cwd: dir)
        #expect(r.code == 2)
        #expect(r.stderr.contains("Migrations/0002_drop_body.yaml:2:5: error: 0002_drop_body.yaml: field 'Note.body' is in production and cannot be deleted [CK302]"), "\(r.stderr)")
        #expect(r.stderr.contains("note: use `deprecate: { recordType: Note, field: body }` instead"))
    }

    // MARK: promote settings and one diagnostic per field change

    @Test func promoteRulesAreConfigurableAndReportOncePerField() throws {
        let dir = try project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Production has Note.mood without indexes; development adds two index kinds to it.
        let dev = dir + "/Schemas/development.yaml"
        let config = dir + "/ckschema.yaml"
        try write(try read(config).replacingOccurrences(of: "production: Schemas/production.ckdb", with: "production: Schemas/production.yaml"), config)
        try write(try read(dev).replacingOccurrences(of: "createdOn: { type: timestamp, indexes: [queryable, sortable] }",
                                                     with: "createdOn: { type: timestamp, indexes: [queryable, sortable] }\n      mood: int64"), dir + "/Schemas/production.yaml")
        try write(try read(dev).replacingOccurrences(of: "createdOn: { type: timestamp, indexes: [queryable, sortable] }",
                                                     with: "createdOn: { type: timestamp, indexes: [queryable, sortable] }\n      mood: { type: int64, indexes: [queryable, sortable] }"), dev)
        let r = try runCLI(["promote", "--check", "--fail-on", "review"], cwd: dir)
        #expect(r.code == 1)
        let warnings = r.stdout.split(separator: "\n").filter { $0.contains("[CK311]") }
        #expect(warnings.count == 1, "\(r.stdout)")
        #expect(warnings.first?.contains("adds queryable and sortable indexes on 'Note.mood'") == true, "\(r.stdout)")
        // A team that adds such indexes routinely says so once, in ckschema.yaml.
        let base = try read(config)
        try write(base + "promote:\n  severity: { CK311: note }\n", config)
        let quiet = try runCLI(["promote", "--check", "--fail-on", "review"], cwd: dir)
        #expect(quiet.code == 0, "\(quiet.stdout)")
        #expect(!quiet.stdout.contains("[CK311]"))
        try write(base + "promote:\n  disable: [CK311]\n", config)
        #expect(try runCLI(["promote", "--check", "--fail-on", "review"], cwd: dir).code == 0)
        try write(base + "promote:\n  severity: { CK999: note }\n", config)
        let badConfig = try runCLI(["promote", "--check"], cwd: dir)
        #expect(badConfig.code == 2)
        #expect(badConfig.stderr.contains("'CK999' is not a rule code"))
    }

    // MARK: System record types and the source's language

    /// A source that does not mention `Users` or `cloudkit.share` does not delete them.
    @Test func systemRecordTypesAbsentFromASourceAreNotRemoved() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("ckschema: 1\nrecordTypes:\n  Report:\n    fields:\n      reason: string\n", dir + "/dev.yaml")
        let prod = CKDBPaths.realFixture("shared-coredata.ckdb")
        let diff = try runCLI(["diff", prod, dir + "/dev.yaml"])
        #expect(!diff.stdout.contains("cloudkit.share"), "\(diff.stdout)")
        #expect(!diff.stdout.contains("record type Users"), "\(diff.stdout)")
        let promote = try runCLI(["promote", "--check", prod, dir + "/dev.yaml"])
        #expect(!promote.stdout.contains("CK301] record type 'cloudkit.share'"))
        #expect(!promote.stdout.contains("'Users' is in production"))
    }

    /// A `.ckdb` source: system fields are named as the file names them, at their own line,
    /// and no fix suggests YAML syntax.
    @Test func messagesSpeakTheCKDBSourcesLanguage() throws {
        let v1 = CKDBPaths.realFixture("trailmark-export-v1.ckdb"), v2 = CKDBPaths.realFixture("trailmark-export-v2.ckdb")
        let r = try runCLI(["promote", "--check", "--fail-on", "review", v1, v2])
        #expect(r.code == 1)
        #expect(r.stdout.contains("\(v2):25:9: warning: adds a queryable index on 'Waypoints.___recordID' to record type 'Waypoints'"), "\(r.stdout)")
        let reverse = try runCLI(["promote", "--check", v2, v1])
        #expect(reverse.code == 1)
        #expect(reverse.stdout.contains("record type 'Summits' is in production and cannot be deleted"))
        #expect(!reverse.stdout.contains("deprecated: true"), "\(reverse.stdout)")
        #expect(!reverse.stdout.contains("'recordName'"))
    }

    // MARK: export

    @Test func jsonSchemaOfAnEmptySchemaSaysSo() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try write("ckschema: 1\nrecordTypes: {}\n", dir + "/empty.yaml")
        let r = try runCLI(["export", dir + "/empty.yaml", "--format", "jsonschema"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(!r.stdout.contains("\"enum\" : [\n\n") && !r.stdout.contains("\"enum\" : []") && !r.stdout.contains("\"enum\":[]"), "\(r.stdout)")
        #expect(r.stdout.contains("no record types"))
    }
}
