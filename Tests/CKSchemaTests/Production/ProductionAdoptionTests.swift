import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaStore
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// Issue 22: an app already in production, through the built binary: a real cktool export
/// adopted with `init --from-production`, then edit -> migrate new -> migrate apply ->
/// promote --plan -> promote --apply -> migrate status --env production, with no false message.
@Suite struct ProductionAdoptionTests {
    static let export = Paths.fixture("ckdb/real/trailmark-export-v1.ckdb")

    /// A new project adopted from the Trailmark export; the caller removes it.
    func adopted() throws -> String {
        let dir = try makeTempDir("ckschema-adopt")
        try FileManager.default.createDirectory(atPath: dir + "/Schemas", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.export, toPath: dir + "/Schemas/production.ckdb")
        // init --from-production never invents a container (issue 32 point 3): the test passes the one it used to make up.
        let r = try runCLI(["init", "--from-production", "Schemas/production.ckdb", "--container", "iCloud.com.example.App"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("wrote ./Migrations/0001_baseline.yaml (3 steps) and ./Migrations/ckschema.sum\n"), "\(r.stdout)")
        return dir
    }

    func edit(_ dir: String, _ from: String, _ to: String) throws {
        let path = dir + "/Schemas/development.yaml"
        let text = try read(path)
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Issue 35 point 9: an export with no `Users` type (Tests/Fixtures/init/no-users.ckdb):
    /// the development schema gets cktool's default Users, and so does the baseline, so the
    /// first `check` passes (it said CK533: replaying the baseline gave no Users).
    @Test func initFromAnExportWithoutUsersPassesItsFirstCheck() throws {
        let dir = try makeTempDir("ckschema-adopt-nousers")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["init", "--from-production", Paths.fixture("init/no-users.ckdb"), "--container", "iCloud.com.example.Trips"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("wrote ./Migrations/0001_baseline.yaml (2 steps) and ./Migrations/ckschema.sum\n"), "\(r.stdout)")
        #expect(try read(dir + "/Schemas/development.yaml").contains("\n  Users:\n"))
        #expect(try read(dir + "/Migrations/0001_baseline.yaml").contains("name: Users\n"))
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == "ckschema check: passed (lint, promote, migrations): 0 errors, 0 warnings\n", "\(check.stdout)")
        #expect(check.stderr == "")
    }

    /// Issue 32 point 3: `init --from-production` never invents a container. Without
    /// `--container` it refuses when nothing names one (writing nothing), takes the one the
    /// app's `.entitlements` lists and says so, and the `--help` example passes one.
    @Test func initFromProductionNeverInventsAContainer() throws {
        let dir = try makeTempDir("ckschema-adopt-container")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Schemas", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.export, toPath: dir + "/Schemas/production.ckdb")
        let refused = try runCLI(["init", "--from-production", "Schemas/production.ckdb"], cwd: dir)
        #expect(refused.code == 2)
        #expect(refused.stderr == """
            ckschema init: error: init --from-production needs the app's container, and no ckschema.yaml or .entitlements file (com.apple.developer.icloud-container-identifiers) in '.' names one; pass it: --container iCloud.com.example.App, the identifier Xcode shows under Signing & Capabilities > iCloud
            usage: ckschema init [FOLDER] [--container ID] [--force] [--from-production SCHEMA]

            """, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/ckschema.yaml"))
        // The app's entitlements name its container: init takes it and says where from.
        try FileManager.default.createDirectory(atPath: dir + "/App", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.fixture("init/Trails.entitlements"), toPath: dir + "/App/Trails.entitlements")
        let found = try runCLI(["init", "--from-production", "Schemas/production.ckdb"], cwd: dir)
        #expect(found.code == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("container iCloud.com.example.Trails, from ./App/Trails.entitlements\ncreated ./ckschema.yaml\n"), "\(found.stdout)")
        #expect(try read(dir + "/ckschema.yaml").contains("\ncontainer: iCloud.com.example.Trails\n"))
        // Two entitlements naming different containers: refused, naming both.
        let two = try makeTempDir("ckschema-adopt-two")
        defer { try? FileManager.default.removeItem(atPath: two) }
        for name in ["A", "B"] { try FileManager.default.createDirectory(atPath: two + "/" + name, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Paths.fixture("init/Trails.entitlements"), toPath: two + "/A/Trails.entitlements")
        try read(Paths.fixture("init/Trails.entitlements")).replacingOccurrences(of: "Trails<", with: "Widgets<").write(toFile: two + "/B/Widgets.entitlements", atomically: true, encoding: .utf8)
        let ambiguous = try runCLI(["init", "--from-production", Self.export], cwd: two)
        #expect(ambiguous.code == 2)
        #expect(ambiguous.stderr.hasPrefix("ckschema init: error: init --from-production: the app's .entitlements name several containers: ./A/Trails.entitlements (iCloud.com.example.Trails); ./B/Widgets.entitlements (iCloud.com.example.Widgets); pass the one this schema is for with --container\n"), "\(ambiguous.stderr)")
        let help = try runCLI(["init", "--help"])
        #expect(help.stdout.contains("\n  ckschema init --from-production Schemas/production.ckdb --container iCloud.com.example.Notes\n"), "\(help.stdout)")
    }

    @Test func anAppInProductionGoesFromAdoptionToADeployWithNoFalseMessage() throws {
        let dir = try adopted()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let status0 = try runCLI(["migrate", "status", "--env", "production"], cwd: dir)
        #expect(status0.code == 0)
        #expect(status0.stdout.contains("0001_baseline  applied"), "\(status0.stdout)")
        #expect(!status0.stdout.contains("CK5"), "\(status0.stdout)")
        try edit(dir, "      waypoints: list<reference>\n", "      waypoints: list<reference>\n      notes: string\n")
        let new = try runCLI(["migrate", "new", "add_notes"], cwd: dir)
        #expect(new.code == 0, "\(new.stderr)")
        #expect(new.stdout.contains("  - addField: { recordType: Trips, name: notes, type: string }\n"))
        let apply = try runCLI(["migrate", "apply"], cwd: dir)
        #expect(apply.code == 0, "\(apply.stderr)")
        let plan = try runCLI(["promote", "--plan", "plan.json"], cwd: dir)
        #expect(plan.code == 0, "\(plan.stderr)")
        #expect(plan.stderr == "wrote plan.json (1 step: 1 safe, 0 review, 0 forbidden)\n")
        let deploy = try runCLI(["promote", "--apply", "plan.json"], cwd: dir)
        #expect(deploy.code == 0, "\(deploy.stderr)")
        #expect(deploy.stdout.hasPrefix("deployed the development schema to production in .ckschema/store.sqlite (1 change, schema only; records untouched)\n  + Trips.notes string\n"), "\(deploy.stdout)")
        let status = try runCLI(["migrate", "status", "--env", "production"], cwd: dir)
        #expect(status.code == 0)
        #expect(status.stdout.contains("0002_add_notes  applied"), "\(status.stdout)")
        #expect(!status.stdout.contains("error") && !status.stdout.contains("warning"), "\(status.stdout)")
        // The store is ahead of the export until production is pulled again: a note says so.
        #expect(status.stdout.contains("[CK536]") && status.stdout.contains("`ckschema pull`"), "\(status.stdout)")
    }

    @Test func migrateNewRefusesARetypeOfAProductionFieldWithPromotesCode() throws {
        let dir = try adopted()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try edit(dir, "      elevation: int64\n", "      elevation: double\n")
        let new = try runCLI(["migrate", "new", "retype"], cwd: dir)
        let promote = try runCLI(["promote", "--check"], cwd: dir)
        #expect(new.code == 2)
        #expect(promote.code == 1)
        let line = "error: field 'Waypoints.elevation' is int64 in production and cannot change type to double [CK303]"
        #expect(new.stderr.contains(line), "\(new.stderr)")
        #expect(promote.stdout.contains(line), "\(promote.stdout)")
        #expect(!new.stderr.contains("CK540"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/Migrations/0002_retype.yaml"))
    }

    /// A migration written before production was known, which production refuses, is named
    /// with promote's code, never with a contradicting "keep it as the migration has it".
    @Test func aPendingMigrationThatRetypesAProductionFieldIsNamedWithPromotesCode() throws {
        let dir = try adopted()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("steps:\n  - removeField: { recordType: Waypoints, field: elevation }\n  - addField: { recordType: Waypoints, name: elevation, type: double }\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/Migrations/0002_bad.yaml"))
        #expect(try runCLI(["migrate", "hash"], cwd: dir).code == 0)
        let new = try runCLI(["migrate", "new", "next", "--store", dir + "/none.sqlite"], cwd: dir)
        #expect(new.code == 2)
        #expect(new.stderr.contains("0002_bad.yaml: field 'Waypoints.elevation' is int64 in production and cannot change type to double [CK303]"), "\(new.stderr)")
        #expect(new.stderr.contains("0002_bad.yaml is not applied to production"), "\(new.stderr)")
    }

    @Test func aPlanWhoseStepsWereCutIsRefusedAndNeverApplied() throws {
        let dir = try adopted()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try edit(dir, "      waypoints: list<reference>\n", "      waypoints: list<reference>\n      notes: string\n      mood: string\n")
        #expect(try runCLI(["migrate", "new", "two"], cwd: dir).code == 0)
        #expect(try runCLI(["migrate", "apply"], cwd: dir).code == 0)
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: dir).code == 0)
        // Cut to its first step, digest and all recomputed by hand: still refused, by its schemas.
        var plan = try PromotionPlan.load(path: dir + "/plan.json")
        plan.steps = Array(plan.steps.prefix(1))
        try plan.jsonData.write(to: URL(fileURLWithPath: dir + "/plan.json"))
        let store = try Store(path: dir + "/.ckschema/store.sqlite", access: .read)
        let before = try store.contentDigest()
        for flag in ["--verify-plan", "--apply"] {
            let r = try runCLI(["promote", flag, "plan.json"], cwd: dir)
            #expect(r.code == 1, "\(flag): \(r.stderr)")
            #expect(r.stdout.hasPrefix("plan.json:1:1: error: 'plan.json' does not hold the steps its schemas give: it has 1 step and the schemas give 2; the first it lacks is step 2, '+ Trips.notes string' [CK393]\n"), "\(flag): \(r.stdout)")
        }
        #expect(try store.contentDigest() == before)
        // Steps edited without the digest: the digest names it too.
        let text = try read(dir + "/plan.json").replacingOccurrences(of: "\"safe\"", with: "\"review\"")
        try text.write(toFile: dir + "/plan.json", atomically: true, encoding: .utf8)
        let edited = try runCLI(["promote", "--verify-plan", "plan.json"], cwd: dir)
        #expect(edited.code == 1)
        #expect(edited.stdout.contains("'plan.json' was edited after it was written"), "\(edited.stdout)")
    }

    @Test func aBaselineIsRefusedForAnEmptyExportAndOverExistingMigrationsWithoutForce() throws {
        let dir = try makeTempDir("ckschema-baseline")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init"], cwd: dir).code == 0)
        // The template's production is empty: nothing to baseline, nothing written.
        let empty = try runCLI(["migrate", "baseline"], cwd: dir)
        #expect(empty.code == 2)
        #expect(empty.stderr.contains("'Schemas/production.ckdb' has no record type or zone: there is nothing in production to take as the baseline; nothing was written [CK537]"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/Migrations/0001_baseline.yaml"))
        // A malformed export: refused by its reader, nothing written.
        try Data("DEFINE SCHEMA\n  RECORD TYPE (\n".utf8).write(to: URL(fileURLWithPath: dir + "/bad.ckdb"))
        let bad = try runCLI(["migrate", "baseline", "--from", "bad.ckdb"], cwd: dir)
        #expect(bad.code == 2)
        #expect(!FileManager.default.fileExists(atPath: dir + "/Migrations/0001_baseline.yaml"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/.ckschema/store.sqlite"))
        let ok = try runCLI(["migrate", "baseline", "--from", Self.export], cwd: dir)
        #expect(ok.code == 0, "\(ok.stderr)")
        #expect(ok.stdout.hasPrefix("wrote Migrations/0001_baseline.yaml (3 steps) and Migrations/ckschema.sum\n"), "\(ok.stdout)")
        // Again: the folder and the store have it already.
        let again = try runCLI(["migrate", "baseline", "--from", Self.export], cwd: dir)
        #expect(again.code == 2)
        #expect(again.stderr.contains("a baseline must be the first migration, and there is already 0001_baseline.yaml, the store's production history (1 migration), the store's development history (1 migration); nothing was written [CK537]"), "\(again.stderr)")
        let forced = try runCLI(["migrate", "baseline", "--from", Self.export, "--force"], cwd: dir)
        #expect(forced.code == 0)
        #expect(forced.stdout.hasPrefix("replaced 0001_baseline.yaml\nreplaced the store's production history (1 migration)\n"), "\(forced.stdout)")
    }

    /// The baseline builds exactly the export, and the store records it in both environments.
    @Test func theBaselineBuildsExactlyTheExportAndIsRecordedInBothEnvironments() throws {
        let dir = try makeTempDir("ckschema-baseline-lib")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let production = try SchemaSource.load(path: Self.export)
        let r = try Baseline.write(production: production, source: "export.ckdb", folder: try MigrationFolder.load(path: dir + "/Migrations"), storePath: dir + "/store.sqlite", force: false)
        let store = try Store(path: dir + "/store.sqlite", access: .read)
        #expect(r.path == dir + "/Migrations/0001_baseline.yaml")
        let folder = try MigrationFolder.load(path: dir + "/Migrations")
        try folder.verifySum()
        #expect(try folder.replay().storeNormalized == production.storeNormalized)
        for env in Environment.allCases {
            #expect(try store.history(env).map(\.name) == ["baseline"])
            #expect(try store.schema(env).storeNormalized == production.storeNormalized)
        }
    }

    /// Issue 18: `promote --apply` swallowed a broken migrations folder with `try?`; it is now
    /// exit 2 with the folder's own diagnostic, and nothing is deployed.
    @Test func promoteApplyReportsABrokenMigrationsFolder() throws {
        let dir = try adopted()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: dir).code == 0)
        try Data("not a migration\n".utf8).write(to: URL(fileURLWithPath: dir + "/Migrations/notes.yaml"))
        let r = try runCLI(["promote", "--apply", "plan.json"], cwd: dir)
        #expect(r.code == 2)
        #expect(r.stderr.contains("'notes.yaml' in the migrations folder is not named NNNN_name.yaml [CK510]"), "\(r.stderr)")
        #expect(!r.stdout.contains("deployed"))
    }

    /// CK535: the store's production is empty while ckschema.yaml names one; the fix applies
    /// the migrations that build it (on Trailmark, the first two).
    @Test func anEmptyStoreProductionIsAFindingWithTheCommandThatRecordsIt() throws {
        let dir = try makeTempDir("ckschema-trailmark")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for item in ["ckschema.yaml", "Schemas", "Migrations"] { try FileManager.default.copyItem(atPath: Paths.root + "/" + item, toPath: dir + "/" + item) }
        #expect(try runCLI(["migrate", "apply"], cwd: dir).code == 0)
        let status = try runCLI(["migrate", "status", "--env", "production"], cwd: dir)
        #expect(status.stdout.contains("Schemas/production.yaml:1:1: warning: the store's production environment is empty, but 'Schemas/production.yaml' is not: `promote --apply` and `migrate apply --env production` would start from nothing [CK535]\nSchemas/production.yaml:1:1: note: run `ckschema migrate apply --env production --to 2`: migrations 1-2 build exactly this production schema\n"), "\(status.stdout)")
        #expect(try runCLI(["check"], cwd: dir).stdout.contains("[CK535]"))
        #expect(try runCLI(["migrate", "apply", "--env", "production", "--to", "2"], cwd: dir).code == 0)
        let after = try runCLI(["migrate", "status", "--env", "production"], cwd: dir)
        #expect(!after.stdout.contains("[CK535]") && !after.stdout.contains("[CK536]"), "\(after.stdout)")
        // Now a fresh plan deploys.
        #expect(try runCLI(["promote", "--plan", "plan.json"], cwd: dir).code == 0)
        let deploy = try runCLI(["promote", "--apply", "plan.json"], cwd: dir)
        #expect(deploy.code == 0, "\(deploy.stderr)")
    }
}

/// One production rule set: every command asks `PromotionPlan.production` with ckschema.yaml's
/// `promote:` settings, and a setting cannot lower a rule production enforces.
@Suite struct OneProductionRuleSetTests {
    @Test func aPromoteSettingCannotLowerAForbiddenRule() throws {
        let dir = try makeTempDir("ckschema-settings")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ckschema.yaml"
        try "ckschema: 1\npromote:\n  disable: [CK301, CK312]\n  severity: { CK303: warning, CK311: note }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: InputError.self) { try Configuration.load(path: path) }
        #expect(error.diagnostics.map(\.message) == [
            "promote: cannot disable CK301: production refuses that change whatever ckschema.yaml says, so every command keeps it an error",
            "promote: cannot lower CK303: production refuses that change whatever ckschema.yaml says, so every command keeps it an error",
        ])
        #expect(error.diagnostics.map { $0.location?.line } == [3, 4])
    }

    @Test func configuredNeverLowersAForbiddenStep() {
        var settings = RuleSettings()
        settings.disabled = ["CK303"]
        let plan = PromotionPlan.production(from: PromoteFixtures.production(), to: PromoteFixtures.developmentField("count") { $0.type = FieldType(.string) }, settings: settings)
        #expect(plan.steps.map(\.changeClass) == [.forbidden])
    }

    /// promote --check reports lint errors and the plan's findings together; promote without
    /// --check exits 1 when it prints an error.
    @Test func promoteGivesOneVerdictFromOneRun() throws {
        let dir = try makeTempDir("ckschema-verdict")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      count: int64\n      gone: string\n".write(toFile: dir + "/prod.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      count: string\n      body: { type: string, encrypted: true, indexes: [queryable] }\n".write(toFile: dir + "/dev.yaml", atomically: true, encoding: .utf8)
        let check = try runCLI(["promote", "--check", dir + "/prod.yaml", dir + "/dev.yaml"])
        #expect(check.code == 1)
        let codes = check.stdout.split(separator: "\n").compactMap { $0.hasSuffix("]") ? $0.split(separator: "[").last.map { String($0.dropLast()) } : nil }
        #expect(codes.contains("CK105") && codes.contains("CK302") && codes.contains("CK303"), "\(check.stdout)")
        let plain = try runCLI(["promote", dir + "/prod.yaml", dir + "/dev.yaml"])
        #expect(plain.code == 1, "\(plain.stdout)")
        #expect(plain.stdout.contains("[CK303]"))
        // A plan file is not written from a schema with lint errors.
        let planned = try runCLI(["promote", "--plan", dir + "/plan.json", dir + "/prod.yaml", dir + "/dev.yaml"])
        #expect(planned.code == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/plan.json"))
    }
}

/// `check`: each source loaded once (validate step included), and a closing line that names
/// the steps that failed.
@Suite struct CheckVerdictTests {
    func project(_ dev: String) throws -> String {
        let dir = try makeTempDir("ckschema-checkverdict")
        try FileManager.default.createDirectory(atPath: dir + "/Schemas", withIntermediateDirectories: true)
        try """
            ckschema: 1
            schemas: { development: Schemas/development.yaml, production: Schemas/production.yaml }
            records:
              - { path: records.ndjson, env: development }

            """.write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: string\n".write(toFile: dir + "/Schemas/production.yaml", atomically: true, encoding: .utf8)
        try dev.write(toFile: dir + "/Schemas/development.yaml", atomically: true, encoding: .utf8)
        try #"{"recordName": "n1", "recordType": "Note", "fields": {"title": {"value": 3, "type": "INT64"}}}"#.appending("\n").write(toFile: dir + "/records.ndjson", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func theClosingLineNamesTheFailedStepsThenThePassedOnes() throws {
        let dir = try project("ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: string\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 1)
        #expect(r.stdout.hasSuffix("ckschema check: failed (validate): 1 error, 0 warnings; passed: lint, promote\n"), "\(r.stdout)")
        let md = try runCLI(["check", "--format", "markdown"], cwd: dir)
        #expect(md.stdout.hasPrefix("**ckschema check**: failed (validate): 1 error\n"), "\(md.stdout)")
    }

    @Test func aMalformedSchemaIsReportedOnceWithRecordsConfigured() throws {
        let dir = try project("ckschema: 1\nrecordTypes:\n  Note: [\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 2)
        let located = r.stdout.split(separator: "\n").filter { $0.hasPrefix("Schemas/development.yaml:") }
        #expect(located.count == 1, "\(r.stdout)")
    }
}
