import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaStore

/// Issue 35 point 9: a schema's indexes are catalogued at once, but their SQLite objects are
/// created with a type's first record, so a baseline of many types runs no DDL per type
/// (each DDL statement made SQLite read its whole schema back: quadratic). Queries answer
/// as before, refusals included.
@Suite struct LazyIndexTests {
    static func objects(_ store: Store, like pattern: String) throws -> [String] {
        try store.db.rows("SELECT name FROM sqlite_master WHERE name LIKE ? ORDER BY name", [.text(pattern)]).compactMap { $0.first?.text }
    }

    @Test func aTypeGetsItsSQLiteIndexesWithItsFirstRecord() throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        // Catalogued, as before: `store.indexes` lists what the schema asks for.
        let catalogued = try sb.store.indexes(.development).filter { $0.recordType == "Note" }.map { "\($0.field):\($0.kind.rawValue)" }
        #expect(catalogued == ["due:btree", "mood:btree", "place:none", "tags:none", "title:btree", "title:fts"])
        // No SQLite object yet for a type without records.
        #expect(try Self.objects(sb.store, like: "ix:development:%").isEmpty)
        #expect(try Self.objects(sb.store, like: "fts:development:%").isEmpty)
        // A query of the empty type answers nothing, and CloudKit's refusals still come from the schema.
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "mood > 0")).get() == [])
        #expect(try sb.names(RecordQuery(recordType: "Note", predicate: "self CONTAINS 'x'")).get() == [])
        guard case .failure(let r) = try sb.names(RecordQuery(recordType: "Note", predicate: "body == 'x'")) else { Issue.record("not refused"); return }
        #expect(r.diagnostics.map(\.code) == ["CK704"])
        // The first import creates Note's objects (and Memo's: the fixture has memos), inside its transaction.
        let imported = try RecordImporter.importFiles([Paths.fixture("runtime/notes.ndjson")], into: sb.store, options: .init())
        #expect(imported.failed == 0)
        #expect(try Self.objects(sb.store, like: "ix:development:Note:%") == ["ix:development:Note:due", "ix:development:Note:mood", "ix:development:Note:title"])
        #expect(try Self.objects(sb.store, like: "fts:development:Note:title%").count >= 4)  // the FTS5 table, its shadow tables, three triggers
        // Production holds no records: still none there.
        #expect(try Self.objects(sb.store, like: "ix:production:%").isEmpty)
        // The query the index serves answers through it.
        let sql = try Store.equalityQuery(env: .development, recordType: "Note", field: "mood")
        #expect(try sb.store.queryPlan(sql).joined().contains("USING INDEX ix:development:Note:mood"))
    }

    /// A record stored while its type had no objects (a store written by hand, or an older
    /// ckschema's raw insert) gets them, filled, at the next schema write.
    @Test func aSchemaWriteGivesATypeWithRecordsEveryObjectItLacks() throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        try MigrationSandbox.insert(sb.store, type: "Note", name: "raw", fields: #"{"title":"Trail walk","mood":4}"#)
        #expect(try Self.objects(sb.store, like: "ix:development:Note:%").isEmpty)
        let schema = try sb.store.schema(.development)
        try sb.store.db.transaction { try sb.store.writeSchema(schema, env: .development) }
        #expect(try Self.objects(sb.store, like: "ix:development:Note:%").count == 3)
        #expect(try sb.store.strings(Store.searchQuery(env: .development, recordType: "Note", field: "title"), "walk") == ["raw"])
    }
}
