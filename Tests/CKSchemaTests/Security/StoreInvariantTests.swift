import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaStore

/// Issue 35 point 12: a damaged store is refused by every command that opens it. A store whose
/// `migrations` table was gone made `migrate status` say CK506 and `records import` import;
/// now `Store.init` checks what a store holds (`Store+Invariants.swift`) for every command.
@Suite struct StoreInvariantTests {
    /// A store with the fixture history applied and a record imported, then damaged by `damage`.
    static func damagedStore(_ damage: String) throws -> (sb: MigrationSandbox, records: String) {
        let sb = try MigrationSandbox(fixtureCount: 2)
        let apply = try runCLI(["migrate", "apply", "--store", sb.store], cwd: sb.root)
        #expect(apply.code == 0, "\(apply.stdout)\(apply.stderr)")
        let records = sb.root + "/n.ndjson"
        try Data(#"{"recordName":"a","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"body":{"value":"a b","type":"STRING"}}}"#.utf8).write(to: URL(fileURLWithPath: records))
        let imported = try runCLI(["records", "import", "--store", sb.store, records], cwd: sb.root)
        #expect(imported.code == 0, "\(imported.stdout)\(imported.stderr)")
        try sb.open().db.execute(damage)
        return (sb, records)
    }

    /// Every command that opens the store, with what it needs besides.
    static func storeCommands(_ sb: MigrationSandbox, records: String) -> [[String]] {
        [
            ["migrate", "status", "--store", sb.store],
            ["migrate", "apply", "--store", sb.store],
            ["migrate", "apply", "--dry-run", "--store", sb.store],
            ["records", "import", "--store", sb.store, records],
            ["records", "export", "--store", sb.store],
            ["records", "delete", "a", "--zone", "Notes", "--store", sb.store],
            ["query", "Note", "--zone", "Notes", "--store", sb.store],
            ["changes", "--zone", "Notes", "--store", sb.store],
            ["notifications", "--store", sb.store],
        ]
    }

    @Test(arguments: [
        ("DROP TABLE migrations", "the table 'migrations' is missing"),
        ("DROP TABLE store_indexes", "the table 'store_indexes' is missing"),
        ("ALTER TABLE records DROP COLUMN modified_by", "the table 'records' has no column 'modified_by'"),
        ("DROP TRIGGER \"changes:delete\"", "the trigger 'changes:delete' is missing"),
        ("DROP TABLE notifications", "the table 'notifications' is missing"),
        ("DELETE FROM environments WHERE name = 'production'", "the environment 'production' has no row in 'environments'"),
    ])
    func everyStoreCommandRefusesADamagedStore(damage: String, words: String) throws {
        let (sb, records) = try Self.damagedStore(damage)
        defer { sb.cleanup() }
        let before = sb.fileBytes()
        let expected = """
            ckschema: error: the store '\(sb.store)' is damaged: \(words); no command reads or writes it [CK501]
            ckschema: note: restore the store from a backup, or move it away and rebuild it ('ckschema migrate apply', then 'ckschema records import')

            """
        for command in Self.storeCommands(sb, records: records) {
            let r = try runCLI(command, cwd: sb.root)
            #expect(r.code == 2, "\(command.prefix(2)): \(r.stdout)\(r.stderr)")
            #expect(r.stderr == expected, "\(command.prefix(2)): \(r.stderr)")
            #expect(!r.stderr.contains("CK506"), "\(command.prefix(2))")
        }
        #expect(sb.fileBytes() == before, "a command wrote into the damaged store")
    }

    /// Through the public API: what a whole store lacks is nothing; opening a damaged one throws.
    @Test func aWholeStoreHasNoDamage() throws {
        let (sb, _) = try Self.damagedStore("SELECT 1")
        defer { sb.cleanup() }
        #expect(try sb.open().damage() == [])
        try sb.open().db.execute("DROP TABLE lock")
        do {
            _ = try Store(path: sb.store, access: .read)
            Issue.record("a store without its lock table opened")
        } catch {
            #expect(error.diagnostics.map(\.code) == ["CK501"])
            #expect(error.diagnostics.first?.message.contains("the table 'lock' is missing") == true)
        }
    }
}
