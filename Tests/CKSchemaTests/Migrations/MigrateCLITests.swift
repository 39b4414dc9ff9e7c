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

/// `ckschema migrate` and `records` end to end, through the built binary.
@Suite(.serialized) struct MigrateCLITests {
    static func args(_ sb: MigrationSandbox, _ rest: String...) -> [String] {
        rest + ["--store", sb.store, "--migrations", sb.migrations]
    }

    /// A running `ckschema migrate apply` whose stdout is read line by line.
    final class Running {
        let process = Process()
        private let out = Pipe()
        private var buffer = ""

        init(_ arguments: [String], cwd: String, environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: cwd)
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// Reads stdout until a line contains `text` (or the process ends).
        func waitFor(_ text: String) -> Bool {
            while !buffer.contains(text) {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { return false }
                buffer += String(decoding: data, as: UTF8.self)
            }
            return true
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    @Test func applyStatusAndHashEndToEnd() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        var r = try runCLI(Self.args(sb, "migrate", "apply", "--to", "2"), cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.contains("applied 0001_initial"))
        #expect(r.stdout.contains("applied 0002_add_fields"))
        r = try runCLI(Self.args(sb, "migrate", "status"), cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.contains("0002_add_fields  applied"))
        #expect(r.stdout.contains("0003_backfill    pending"))
        r = try runCLI(Self.args(sb, "migrate", "status", "--format", "json"), cwd: sb.root)
        let json = try JSONValue.parse(r.stdout)
        #expect(json["migrations"]?.arrayValue?.compactMap { $0["state"]?.stringValue } == ["applied", "applied", "pending", "pending", "pending"])
        // An edited applied migration: status exits 1, apply exits 2, and the store is untouched.
        try sb.write("0001_initial.yaml", try read(sb.migrations + "/0001_initial.yaml") + "  - addRole: { name: Late }\n")
        r = try runCLI(Self.args(sb, "migrate", "status"), cwd: sb.root)
        #expect(r.code == 1)
        #expect(r.stdout.contains("0001_initial     changed"))
        #expect(r.stdout.contains("[CK530]"))
        let before = sb.fileBytes()
        r = try runCLI(Self.args(sb, "migrate", "apply"), cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("error: migration 0001_initial.yaml is applied to development, but its file has changed since it was applied [CK530]"))
        #expect(sb.fileBytes() == before)
    }

    @Test func migrateNewWritesTheNextFileAndRefusesWhatProductionRefuses() throws {
        let sb = try MigrationSandbox(fixtureCount: 4)
        defer { sb.cleanup() }
        let dev = Paths.fixture("store/development.yaml")
        var r = try runCLI(Self.args(sb, "migrate", "new", "retire", "--schema", dev), cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.hasPrefix("wrote \(sb.migrations)/0005_retire.yaml and updated ckschema.sum"))
        r = try runCLI(Self.args(sb, "migrate", "status", "--schema", dev), cwd: sb.root)
        #expect(r.code == 0)
        #expect(!r.stdout.contains("CK533"))
        // A schema that drops a deployed field: nothing is written, exit 2, the fix is named.
        let bad = sb.root + "/bad.yaml"
        try Data(try read(dev).replacingOccurrences(of: "      viewsText: string\n", with: "").utf8).write(to: URL(fileURLWithPath: bad))
        r = try runCLI(Self.args(sb, "migrate", "new", "drop", "--schema", bad), cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("field 'Note.viewsText' is gone from the development schema; production never deletes a deployed field [CK540]"))
        #expect(r.stderr.contains("note: put it back with `deprecated: true`"))
        #expect(!FileManager.default.fileExists(atPath: sb.migrations + "/0006_drop.yaml"))
    }

    @Test func anUnknownStepExitsTwoAndNamesTheLine() throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        try sb.write("0002_typo.yaml", "steps:\n  - addFeild: { recordType: Note, name: x, type: string }\n", hash: false)
        let r = try runCLI(Self.args(sb, "migrate", "apply"), cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("0002_typo.yaml:2:5: error: unknown step 'addFeild'; did you mean 'addField'? [CK513]"))
        #expect(!FileManager.default.fileExists(atPath: sb.store))
    }

    @Test func aDryRunPrintsThePlanAndCreatesNothing() throws {
        let sb = try MigrationSandbox(fixtureCount: 3)
        defer { sb.cleanup() }
        let r = try runCLI(Self.args(sb, "migrate", "apply", "--dry-run"), cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.contains("dry run: would apply to development:"))
        #expect(r.stdout.contains("    backfill Note.wordCount = {length(body)}"))
        #expect(!FileManager.default.fileExists(atPath: sb.store))
    }

    @Test func aChildKilledMidMigrationLeavesTheLastFullyAppliedMigration() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        #expect(try runCLI(Self.args(sb, "migrate", "apply", "--to", "2"), cwd: sb.root).code == 0)
        do {
            let store = try sb.open()
            try MigrationSandbox.insert(store, type: "Note", name: "n1", fields: #"{"title":"Hello","body":"the quick brown fox","views":42}"#)
        }
        let child = try Running(Self.args(sb, "migrate", "apply"), cwd: sb.root, environment: ["CKSCHEMA_DEBUG_PAUSE": "0004_copy.yaml:2:30000"])
        #expect(child.waitFor("paused after step 2 of 0004_copy.yaml"))
        // 0003 is committed; 0004 has added a field and copied into it inside its open transaction.
        let committed = try Store(path: sb.store, access: .read).contentDigest()
        child.kill()
        let store = try sb.open()
        #expect(try store.contentDigest() == committed)
        #expect(try store.history(.development).map(\.version) == [1, 2, 3])
        #expect(try store.schema(.development).recordType(named: "Note")?.field(named: "viewsText") == nil)
        #expect(try MigratorTests.fields(store, "n1")["viewsText"] == nil)
        // The killed run's lock is stale: the next run takes it over and finishes.
        let r = try runCLI(Self.args(sb, "migrate", "apply", "--lock-timeout", "1"), cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.contains("took over a stale lock left by pid \(child.process.processIdentifier)"))
        #expect(try store.history(.development).map(\.version) == [1, 2, 3, 4, 5])
        #expect(try MigratorTests.fields(store, "n1")["viewsText"] == .string("42"))
    }

    @Test func twoConcurrentAppliesNeverApplyTwice() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        #expect(try runCLI(Self.args(sb, "migrate", "apply", "--to", "1"), cwd: sb.root).code == 0)
        let first = try Running(Self.args(sb, "migrate", "apply"), cwd: sb.root, environment: ["CKSCHEMA_DEBUG_PAUSE": "0003_backfill.yaml:700"])
        #expect(first.waitFor("paused after step 1 of 0003_backfill.yaml"))
        // A second run with a short timeout gives up and names the holder.
        let impatient = try runCLI(Self.args(sb, "migrate", "apply", "--lock-timeout", "0.2"), cwd: sb.root)
        #expect(impatient.code == 2)
        #expect(impatient.stderr.contains("is locked by pid \(first.process.processIdentifier) on host"))
        #expect(impatient.stderr.contains("[CK505]"))
        // A patient one waits for the first to finish and finds nothing left to do.
        let patient = try runCLI(Self.args(sb, "migrate", "apply", "--lock-timeout", "60"), cwd: sb.root)
        first.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0)
        #expect(patient.code == 0)
        #expect(patient.stdout.contains("development is up to date"))
        #expect(!patient.stdout.contains("applied 0"))
        let history = try sb.open().history(.development)
        #expect(history.map(\.version) == [1, 2, 3, 4, 5])
    }

    @Test func promoteApplyDeploysTheSchemaToTheStoresProductionOnce() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        #expect(try runCLI(Self.args(sb, "migrate", "apply", "--env", "production", "--to", "4"), cwd: sb.root).code == 0)
        let from = sb.root + "/production.yaml", to = Paths.fixture("store/development.yaml")
        try Data(try sb.folder().replay(upTo: 4).canonicalYAML.utf8).write(to: URL(fileURLWithPath: from))
        let plan = sb.root + "/plan.json"
        #expect(try runCLI(["promote", from, to, "--plan", plan], cwd: sb.root).code == 0)
        var r = try runCLI(["promote", from, to, "--apply", plan, "--store", sb.store], cwd: sb.root)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("deployed the development schema to production in \(sb.store)"))
        let store = try Store(path: sb.store, access: .read)
        #expect(try store.schema(.production).storeNormalized == (try SchemaSource.load(path: to)).storeNormalized)
        // Applying the same plan again: the store's production has moved on, so the plan is stale.
        r = try runCLI(["promote", from, to, "--apply", plan, "--store", sb.store], cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("the plan is stale"))
    }

    @Test func recordsImportReportsFailuresWithExitOne() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        #expect(try runCLI(Self.args(sb, "migrate", "apply", "--env", "production"), cwd: sb.root).code == 0)
        var r = try runCLI(["records", "import", "--env", "production", "--store", sb.store, Paths.fixture("store/records/bad-production.ndjson")], cwd: sb.root)
        #expect(r.code == 1)
        #expect(r.stdout.contains("bad-production.ndjson:2:"))
        #expect(r.stdout.contains("error: record #2 'n4', field 'titel': Cannot create or modify field 'titel' in record 'Note' in production schema [CK402]"))
        #expect(r.stdout.contains("saved 1 record to production in 1 batch; 5 failed"))
        r = try runCLI(["records", "export", "--env", "production", "--store", sb.store], cwd: sb.root)
        #expect(r.code == 0)
        #expect(r.stdout.split(separator: "\n").count == 1)
        #expect(r.stdout.contains(#""recordName":"t2""#))
        r = try runCLI(["records", "import", "--save-policy", "ifChanged", "--store", sb.store, "x.ndjson"], cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("'ifChanged' is not a save policy"))
    }
}
