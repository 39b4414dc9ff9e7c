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

/// Issue #11, defect 4: after `migrate apply` is killed mid-backfill, the hot rollback
/// journal it leaves does not stop the commands that only read the store. Each case kills a
/// real child process (SIGKILL) at a different point, with a page cache small enough that
/// the backfill has written into the store file before it was killed.
@Suite(.serialized) struct CrashRecoveryTests {
    static let records = 3000

    static func seeded() throws -> MigrationSandbox {
        let sb = try MigrationSandbox(fixtureCount: 5)
        #expect(try runCLI(MigrateCLITests.args(sb, "migrate", "apply", "--to", "2"), cwd: sb.root).code == 0)
        let store = try sb.open()
        try store.db.transaction {
            for i in 0..<records {
                try MigrationSandbox.insert(store, type: "Note", name: "n\(i)",
                                            fields: #"{"title":"Note \#(i)","body":"\#(String(repeating: "word ", count: 20))","views":\#(i)}"#)
            }
        }
        return sb
    }

    @Test(arguments: [("0003_backfill.yaml:1:30000", [1, 2]), ("0003_backfill.yaml:3:30000", [1, 2]), ("0004_copy.yaml:2:30000", [1, 2, 3])])
    func readOnlyCommandsWorkAfterAKillMidBackfill(pause: String, committed: [Int]) throws {
        let sb = try Self.seeded()
        defer { sb.cleanup() }
        let before = try Store(path: sb.store, access: .read).contentDigest()
        let file = String(pause.split(separator: ":")[0]), step = String(pause.split(separator: ":")[1])
        let child = try MigrateCLITests.Running(MigrateCLITests.args(sb, "migrate", "apply"), cwd: sb.root,
                                                environment: ["CKSCHEMA_DEBUG_PAUSE": pause, "CKSCHEMA_DEBUG_CACHE_KB": "16"])
        #expect(child.waitFor("paused after step \(step) of \(file)"))
        child.kill()
        // The kill left a hot journal: the store file holds half-written pages.
        let journal = (try? FileManager.default.attributesOfItem(atPath: sb.store + "-journal")[.size] as? Int) ?? 0
        #expect(journal > 0, "no journal left behind")

        // Every read-only command works, and sees the last whole migration.
        let status = try runCLI(MigrateCLITests.args(sb, "migrate", "status"), cwd: sb.root)
        #expect(status.code == 0, "\(status.stdout)\(status.stderr)")
        for v in committed { #expect(status.stdout.contains(String(format: "%04d", v) + "_") && status.stdout.contains("applied")) }
        #expect(status.stdout.contains(String(format: "%04d", committed.count + 1) + "_") && status.stdout.contains("pending"), "\(status.stdout)")
        let dry = try runCLI(MigrateCLITests.args(sb, "migrate", "apply", "--dry-run"), cwd: sb.root)
        #expect(dry.code == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("dry run: would apply to development:"))
        let export = try runCLI(["records", "export", "--store", sb.store], cwd: sb.root)
        #expect(export.code == 0, "\(export.stderr)")
        #expect(export.stdout.split(separator: "\n").count == Self.records)
        #expect(!export.stdout.contains("viewsText"))
        if committed == [1, 2] {
            #expect(!export.stdout.contains("wordCount"))
            #expect(try Store(path: sb.store, access: .read).contentDigest() == before)
        }
        // The journal was rolled back, and the next apply completes.
        #expect(!FileManager.default.fileExists(atPath: sb.store + "-journal") || ((try? FileManager.default.attributesOfItem(atPath: sb.store + "-journal")[.size] as? Int) ?? 0) == 0)
        let again = try runCLI(MigrateCLITests.args(sb, "migrate", "apply", "--lock-timeout", "1"), cwd: sb.root)
        #expect(again.code == 0, "\(again.stdout)\(again.stderr)")
        let store = try sb.open()
        #expect(try store.history(.development).map(\.version) == [1, 2, 3, 4, 5])
        #expect(try MigratorTests.fields(store, "n7")["viewsText"] == .string("7"))
        #expect(try store.recordCount(.development) == Self.records)
    }
}
