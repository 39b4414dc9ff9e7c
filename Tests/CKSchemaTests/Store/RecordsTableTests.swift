import Foundation
import Testing
import CKSchemaModel
@testable import CKSchemaStore
@testable import CKSchemaRuntime

/// The `records` table has one home (`RecordsTable`, `Store+Records.swift`), and the
/// connection's statement cache reuses statements without leaking them or their locks.
@Suite struct RecordsTableTests {
    /// Runtime and migrations call the store's functions and never write SQL of the records
    /// table themselves (a data step gives the store its field expression, not a statement).
    @Test(arguments: ["CKSchemaRuntime", "CKSchemaMigrations"])
    func noLayerAboveTheStoreSpellsSQLOfTheRecordsTable(_ target: String) throws {
        let folder = Paths.root + "/Sources/" + target
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 5, "the scan reads \(target)'s sources")
        let statement = try Regex(#"(?i)\b(FROM|INTO|UPDATE|JOIN|ON)\s+records\b"#)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains(statement) {
                // Prose in comments may name the table ("a SELECT over `records`").
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                found.append("\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found == [], "SQL of `records` belongs in CKSchemaStore (RecordsTable, Store+Records.swift)")
    }

    /// A data step's update and its dry-run count scope the same records: the count is what
    /// the update then changes (the count used to be cut out of the UPDATE's text).
    @Test func aDataStepsCountIsWhatItsUpdateChanges() throws {
        let dir = try makeTempDir("ckschema-records")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store(path: dir + "/store.sqlite")
        for (name, fields) in [("a", #"{"x":1}"#), ("b", #"{}"#), ("c", #"{"x":null}"#), ("d", #"{"y":2}"#)] {
            #expect(try store.insertRecord(env: .development, zone: "_defaultZone", type: "T", name: name, changeTag: "t0", now: 1, fields: fields))
        }
        #expect(try store.insertRecord(env: .development, zone: "_defaultZone", type: "U", name: "e", changeTag: "t0", now: 1, fields: "{}"))
        let update = RecordsFieldUpdate(recordType: "T", path: "'$.\"x\"'", value: "?", valueParameters: [.integer(7)],
                                        conditions: ["json_extract(fields, '$.\"x\"') IS NULL"])
        #expect(try store.countRecords(update, env: .development) == 3)
        #expect(try store.countRecords(update, env: .production) == 0)
        #expect(try store.updateRecords(update, env: .development, changeTag: "m1", now: 9) == 3)
        #expect(try store.countRecords(update, env: .development) == 0)
        let b = try #require(try store.recordRow(env: .development, zone: "_defaultZone", name: "b"))
        #expect(b.changeTag.hasPrefix("m1-"))
        #expect(try store.recordRow(env: .development, zone: "_defaultZone", name: "a")?.changeTag == "t0")
        #expect(try store.recordRow(env: .development, zone: "_defaultZone", name: "e")?.changeTag == "t0")
    }

    /// The table a new store creates has exactly the declared columns, in order.
    @Test func aNewStoresRecordsTableHasTheDeclaredColumns() throws {
        let dir = try makeTempDir("ckschema-records")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store(path: dir + "/store.sqlite")
        let columns = try store.db.rows("PRAGMA table_info(records)").map { $0[1].text ?? "" }
        #expect(columns == RecordsTable.Column.allCases.map(\.rawValue))
        #expect(RecordsTable.selectRows == "SELECT id, record_type, record_name, zone, change_tag, created_at, modified_at, fields FROM records")
    }

    /// One record through every statement of one record, as import, delete and notifications use them.
    @Test func theStatementsOfOneRecord() throws {
        let dir = try makeTempDir("ckschema-records")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store(path: dir + "/store.sqlite")
        let env = Environment.development
        #expect(try store.insertRecord(env: env, zone: "_defaultZone", type: "Note", name: "n\u{0}1", changeTag: "t1", now: 5, fields: #"{"a":1}"#))
        #expect(try store.insertRecord(env: env, zone: "_defaultZone", type: "Note", name: "n\u{0}1", changeTag: "t2", now: 6, fields: "{}") == false)
        #expect(try store.recordRow(env: env, zone: "_defaultZone", name: "n\u{0}1")?.changeTag == "t1")
        #expect(try store.recordRow(env: env, zone: "_defaultZone", name: "n\u{0}2") == nil, "the NUL is part of the name")
        try store.saveRecordFields(env: env, zone: "_defaultZone", name: "n\u{0}1", fields: #"{"b":2}"#, merging: true, changeTag: "t3", now: 7)
        #expect(try store.recordFields(env, recordName: "n\u{0}1") == #"{"a":1,"b":2}"#)
        try store.saveRecordFields(env: env, zone: "_defaultZone", name: "n\u{0}1", fields: #"{"c":3}"#, merging: false, changeTag: "t4", now: 8)
        #expect(try store.recordFields(env, recordName: "n\u{0}1") == #"{"c":3}"#)
        #expect(try store.recordCount(env) == 1 && store.recordCount(env, recordType: "Note") == 1 && store.recordCount(env, recordType: "Tag") == 0)
        #expect(try store.recordKeys(env: env, recordType: "Note").map(\.name) == ["n\u{0}1"])
        let rows = try store.exportRows(env: env, recordType: nil)
        let row = try #require(try rows.next())
        #expect(row.recordName == "n\u{0}1" && row.changeTag == "t4" && row.createdAt == 5 && row.modifiedAt == 8)
        #expect(try rows.next() == nil)
        #expect(try store.lastRecordID() == row.id)
        #expect(try store.deleteRecord(env: env, zone: "_defaultZone", name: "n\u{0}1"))
        #expect(try store.deleteRecord(env: env, zone: "_defaultZone", name: "n\u{0}1") == false)
        #expect(throws: SQLiteError.self) { try store.queryRows("SELECT 1", []) }
    }

    /// `Store.equalityQuery` binds the environment and type, and SQLite still uses the partial index.
    @Test func theEqualityQueryBindsItsNamesAndUsesThePartialIndex() throws {
        let dir = try makeTempDir("ckschema-records")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try Store(path: dir + "/store.sqlite")
        try store.db.execute(#"CREATE INDEX "ix:development:Note:title" ON records (json_extract(fields, '$.title')) WHERE env = 'development' AND record_type = 'Note'"#)
        _ = try store.insertRecord(env: .development, zone: "_defaultZone", type: "Note", name: "n1", changeTag: "t", now: 0, fields: #"{"title":"Hello"}"#)
        _ = try store.insertRecord(env: .development, zone: "_defaultZone", type: "Tag", name: "t1", changeTag: "t", now: 0, fields: #"{"title":"Hello"}"#)
        let lookup = try Store.equalityQuery(env: .development, recordType: "Note", field: "title")
        #expect(!lookup.sql.contains("'development'") && !lookup.sql.contains("'Note'"), "names are bound, not spliced")
        #expect(lookup.values == ["development", "Note"])
        #expect(try store.queryPlan(lookup).joined().contains("USING INDEX ix:development:Note:title"))
        #expect(try store.strings(lookup, "Hello") == ["n1"])
        let hostile = try Store.equalityQuery(env: .development, recordType: "Note' OR '1'='1", field: "title")
        #expect(try store.strings(hostile, "Hello") == [])
    }
}

@Suite struct StatementCacheTests {
    @Test func theSameSQLGivesTheSameStatementWithItsBindingsCleared() throws {
        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let sql = CachedSQL("SELECT ?1")
        let first: OpaquePointer
        do {
            let s = try db.cached(sql)
            try s.bind(42, at: 1)
            #expect(try s.step())
            #expect(s.int64(at: 0) == 42)
            first = s.handle
        }
        let s = try db.cached(sql)
        #expect(s.handle == first, "the cached statement is reused")
        #expect(try s.step())
        #expect(s.isNull(at: 0), "the binding of the last use is cleared")
        #expect(db.cachedStatementCount == 1)
        #expect(try db.cached(CachedSQL("SELECT ?1 + 1")).handle != first)
        #expect(db.cachedStatementCount == 2)
    }

    /// A statement the store declares (`CachedSQL`) is found by the declaration, not its text.
    @Test func aDeclaredStatementIsFoundByItsDeclaration() throws {
        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let sql = CachedSQL("SELECT ?1")
        let first = try db.cached(sql).handle
        #expect(try db.cached(sql).handle == first)
        #expect(try db.cached(CachedSQL("SELECT ?1")).handle != first, "another declaration is another statement")
        #expect(db.cachedStatementCount == 2)
        // Declarations made and dropped in turn: each is its own statement, never another's
        // (a freed declaration's address cannot be reused while the cache holds it).
        for n in 0..<50 {
            let s = try db.cached(CachedSQL("SELECT \(n)"))
            #expect(try s.step() && s.int64(at: 0) == Int64(n))
        }
        #expect(db.close() == 0)
    }

    /// A second use of the same SQL while the first is alive gets its own statement: the
    /// first keeps its place.
    @Test func nestedUsesDoNotResetEachOther() throws {
        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let sql = CachedSQL("SELECT value FROM json_each('[1,2,3]')")
        let outer = try db.cached(sql)
        #expect(try outer.step())
        #expect(outer.int64(at: 0) == 1)
        do {
            let inner = try db.cached(sql)
            #expect(inner.handle != outer.handle)
            var all: [Int64] = []
            while try inner.step() { all.append(inner.int64(at: 0)) }
            #expect(all == [1, 2, 3])
        }
        #expect(try outer.step())
        #expect(outer.int64(at: 0) == 2)
        #expect(db.cachedStatementCount == 1)
    }

    /// A cached statement is reset when its user releases it, so a read half-stepped does not
    /// keep SQLite's shared lock and block another connection's write.
    @Test func aReleasedCachedReadHoldsNoLock() throws {
        let dir = try makeTempDir("ckschema-cache")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cache.sqlite"
        let a = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try a.execute("CREATE TABLE t (x)")
        try a.execute("INSERT INTO t VALUES (1), (2)")
        do {
            let s = try a.cached(CachedSQL("SELECT x FROM t"))
            #expect(try s.step())
        }
        let b = try SQLiteConnection(path: path, mode: .readWrite)
        try b.execute("INSERT INTO t VALUES (3)")
        #expect(try a.scalar("SELECT count(*) FROM t")?.integer == 3)
    }

    /// The cache holds handles, not statements: no cycle keeps the connection alive, and
    /// closing it finalizes every cached statement (`sqlite3_close` is SQLITE_OK, not BUSY).
    @Test func theConnectionClosesCleanlyWithCachedStatements() throws {
        weak var released: SQLiteConnection?
        do {
            let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
            released = db
            for n in 0..<3 { #expect(try db.cached(CachedSQL("SELECT \(n)")).step()) }
            #expect(db.cachedStatementCount == 3)
        }
        #expect(released == nil, "no statement in the cache holds its connection")

        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let one = CachedSQL("SELECT 1")
        do { #expect(try db.cached(one).step()) }
        #expect(db.close() == 0, "SQLITE_OK: the cache finalized its statements")
        #expect(throws: SQLiteError.self) { try db.cached(one) }

        // What close reports when a statement is left open: SQLITE_BUSY (5).
        let other = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let open = try other.prepare("SELECT 1")
        withExtendedLifetime(open) { #expect(other.close() == 5) }
    }
}
