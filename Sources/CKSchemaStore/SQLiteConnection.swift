import CKSchemaModel

internal import CSQLite
import Foundation

/// An SQLite failure: the result code, SQLite's message, and the SQL that failed.
public struct SQLiteError: Error, Sendable, Equatable {
    /// The primary result code (`SQLITE_BUSY` is 5, `SQLITE_FULL` 13, ...).
    public var code: Int32
    /// The extended result code, when SQLite gave one.
    public var extendedCode: Int32
    /// SQLite's own message (`sqlite3_errmsg`).
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// The database is locked by another connection and the busy timeout ran out.
    public var isBusy: Bool { code == 5 || code == 6 }
    /// The disk (or the page limit) is full.
    public var isFull: Bool { code == 13 }
    /// The file cannot be written.
    public var isReadOnly: Bool { code == 8 }
    /// The file is not a database, or is damaged.
    public var isNotADatabase: Bool { code == 26 || code == 11 }
}

extension SQLiteError: CustomStringConvertible {
    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql))" }
        return text
    }
}

/// A value bound to or read from an SQLite statement.
package enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package var text: String? { if case .text(let s) = self { return s }; return nil }
    package var integer: Int64? {
        switch self {
        case .integer(let i): i
        case .real(let d): Int64(exactly: d)
        default: nil
        }
    }
    var real: Double? {
        switch self {
        case .real(let d): d
        case .integer(let i): Double(i)
        default: nil
        }
    }
}

/// Owns one `sqlite3` handle: opens it, prepares and finalizes statements, closes it in `deinit`.
/// Every SQLite return code is checked where it is returned and turned into an `SQLiteError`.
package final class SQLiteConnection {
    /// How the file is opened.
    enum Mode { case readWrite, readWriteCreate, readOnly }

    private let db: OpaquePointer
    let path: String

    init(path: String, mode: Mode) throws(SQLiteError) {
        self.path = path
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let handle { sqlite3_close_v2(handle) }
            throw SQLiteError(code: rc & 0xFF, extendedCode: rc, message: message)
        }
        db = handle
        sqlite3_extended_result_codes(db, 1)
        Self.registerExactText(db)
    }

    /// The name of `exactTextFunction` in SQL: `ckschema_text(fields -> '$.f')`.
    package static let exactTextFunction = "ckschema_text"

    /// `ckschema_text(json)`: the string a JSON string text holds, NUL bytes and all, with its
    /// byte length; NULL for anything that is not one JSON string. SQLite's json_extract
    /// (3.40) stops at a NUL, so `"x\u0000b"` and `"x\u0000a"` both read as "x"; the store's
    /// string comparisons use this function where the stored JSON holds a NUL (StoreQuery),
    /// so that `<`, `IN`, `BEGINSWITH` and sorting are exact (issue 24, defect 4).
    /// Deterministic and innocuous: it reads only its argument.
    private static func registerExactText(_ db: OpaquePointer) {
        sqlite3_create_function_v2(db, exactTextFunction, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil, { context, count, arguments in
            guard count == 1, let argument = arguments?[0], sqlite3_value_type(argument) == SQLITE_TEXT,
                  let text = sqlite3_value_text(argument) else { sqlite3_result_null(context); return }
            let length = Int(sqlite3_value_bytes(argument))
            let raw = UnsafeRawBufferPointer(start: text, count: length)
            guard length >= 2, raw[0] == UInt8(ascii: "\"") else { sqlite3_result_null(context); return }
            var out: [UInt8] = []
            out.reserveCapacity(length)
            var i = 1
            guard (try? JSONString.decode(raw, &i, into: &out, strict: true)) == true, i == length - 1,
                  let n = Int32(exactly: out.count) else { sqlite3_result_null(context); return }
            out.withUnsafeBytes { bytes in
                if n > 0, let base = bytes.baseAddress {
                    sqlite3_result_text(context, base.assumingMemoryBound(to: CChar.self), n, ckschema_sqlite_transient())
                } else {
                    sqlite3_result_text(context, "", 0, ckschema_sqlite_transient())
                }
            }
        }, nil, nil, nil)
    }

    deinit {
        _ = close()
    }

    /// The statements `cached` keeps, by their `CachedSQL` declaration's identity (no hash of
    /// the text). Raw handles, never `SQLiteStatement`s: a statement holds its connection
    /// strongly, so a cache of them would be a cycle and the connection would never close. Only
    /// SQL the store declares once is cached (a fixed set).
    private var declared: [ObjectIdentifier: CachedHandle] = [:]
    private var isClosed = false

    /// Finalizes the cached statements, then closes the handle. Returns `sqlite3_close`'s code:
    /// SQLITE_OK, or SQLITE_BUSY when a statement from `prepare` is still alive, in which case
    /// the handle closes when that statement is finalized (`sqlite3_close_v2`). `deinit` calls
    /// it (no statement can be alive then, each holds the connection); tests call it to prove
    /// that the cache leaves nothing open. The connection is not used after it.
    func close() -> Int32 {
        guard !isClosed else { return SQLITE_OK }
        isClosed = true
        for entry in declared.values { sqlite3_finalize(entry.handle) }
        declared.removeAll()
        let rc = sqlite3_close(db)
        if rc != SQLITE_OK { sqlite3_close_v2(db) }
        return rc
    }

    /// True when SQLite opened the file read-only (the file or its folder cannot be written).
    var isReadOnly: Bool { sqlite3_db_readonly(db, "main") == 1 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(db)) }

    /// The rowid of the last inserted row.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Waits up to `milliseconds` for another connection's lock before failing with SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int) throws(SQLiteError) {
        try check(sqlite3_busy_timeout(db, Int32(clamping: milliseconds)), sql: nil)
    }

    /// Runs one statement that returns no rows. Text after the first statement is refused
    /// (SQLITE_MISUSE), so SQL built with a name in it can never carry a second statement.
    package func execute(_ sql: String) throws(SQLiteError) {
        let s = try prepare(sql)
        while try s.step() {}
    }

    /// Runs a script of several statements: only for the store's own fixed DDL, never for
    /// text that holds a name or value from a file.
    func executeTrustedScript(_ sql: String) throws(SQLiteError) {
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(errmsg)
            throw SQLiteError(code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(db), message: message, sql: sql)
        }
    }

    /// Runs one statement with bound values, returning no rows.
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let s = try prepare(sql)
        try s.bind(values)
        while try s.step() {}
    }

    /// Runs a query and returns every row.
    package func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let s = try prepare(sql)
        try s.bind(values)
        var out: [[SQLiteValue]] = []
        while try s.step() { out.append((0..<s.columnCount).map { s.value(at: $0) }) }
        return out
    }

    /// The first column of the first row, or nil when there is none.
    package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        let s = try prepare(sql)
        try s.bind(values)
        guard try s.step() else { return nil }
        return s.value(at: 0)
    }

    /// Compiles exactly one statement: text after it (other than spaces and `;`) is refused,
    /// so that a name spliced into SQL by mistake cannot smuggle in a second statement.
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        SQLiteStatement(stmt: try compile(sql), connection: self, sql: sql, cache: nil)
    }

    /// The prepared statement of a declaration the store makes once (`RecordsTable`'s
    /// `static let`s), kept on this connection (GRDB's cached statements): compiled on first
    /// use, then the same statement, reset and its bindings cleared, on every call; found by the
    /// declaration's identity, so a statement run per record does not hash its text each time.
    /// The statement is reset again when the returned object is released, so a read never
    /// keeps SQLite's lock after it. While one use of it is alive, another call gets a freshly
    /// prepared statement instead, so nested uses never reset each other. SQL built per input
    /// uses `prepare`.
    package func cached(_ sql: CachedSQL) throws(SQLiteError) -> SQLiteStatement {
        let key = ObjectIdentifier(sql)
        if let entry = declared[key] {
            guard !entry.inUse else { return try prepare(sql.text) }
            sqlite3_reset(entry.handle)
            sqlite3_clear_bindings(entry.handle)
            return SQLiteStatement(stmt: entry.handle, connection: self, sql: sql.text, cache: entry)
        }
        let entry = CachedHandle(try compile(sql.text), for: sql)
        declared[key] = entry
        return SQLiteStatement(stmt: entry.handle, connection: self, sql: sql.text, cache: entry)
    }

    /// How many statements the cache holds (for tests).
    var cachedStatementCount: Int { declared.count }

    private func compile(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        guard !isClosed else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed", sql: sql) }
        var stmt: OpaquePointer?
        var rest = ""
        let rc = sql.withCString { p -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(db, p, -1, &stmt, &tail)
            if let tail { rest = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK, let stmt else {
            throw error(rc, sql: sql)
        }
        if rest.utf8.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D && $0 != 0x3B }) {
            sqlite3_finalize(stmt)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one SQL statement in one prepare", sql: sql)
        }
        return stmt
    }

    /// Runs `body` inside a transaction (`BEGIN IMMEDIATE` by default): commits when it returns,
    /// rolls back when it throws, so a failure leaves the database as it was.
    package func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // The rollback's own failure (no transaction left after a fatal error) changes nothing.
            if sqlite3_get_autocommit(db) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Replaces this connection's main database with a copy of `source`'s (SQLite's online
    /// backup API, in one step): how an in-memory store is made from a template.
    func copyDatabase(from source: SQLiteConnection) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(db, "main", source.db, "main") else { throw error(sqlite3_errcode(db), sql: nil) }
        let step = sqlite3_backup_step(backup, -1)
        let finish = sqlite3_backup_finish(backup)
        guard step == SQLITE_DONE else { throw error(step, sql: nil) }
        try check(finish, sql: nil)
    }

    /// True while a transaction is open.
    var isInTransaction: Bool { sqlite3_get_autocommit(db) == 0 }

    /// Whether this SQLite library was built with FTS5 (Debian's and macOS's are).
    var hasFTS5: Bool { sqlite3_compileoption_used("ENABLE_FTS5") == 1 }

    func check(_ rc: Int32, sql: String?) throws(SQLiteError) {
        if rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE { throw error(rc, sql: sql) }
    }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc & 0xFF, extendedCode: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)), sql: sql)
    }

    /// The SQLite library version (`3.40.1`).
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

/// SQL the store declares once (a `static let`), which `SQLiteConnection.cached` finds by the
/// declaration's identity rather than by hashing its text.
package final class CachedSQL: Sendable {
    package let text: String

    package init(_ text: String) { self.text = text }
}

/// A statement handle the connection's cache owns, and whether a `SQLiteStatement` is using it.
/// It holds no reference to the connection (no cycle); the connection finalizes it in `close`.
/// It keeps its declaration alive, so that the declaration's identity, the cache's key, can
/// never be taken by another `CachedSQL` allocated at the same address.
private final class CachedHandle {
    let handle: OpaquePointer
    let declaration: CachedSQL
    var inUse = true

    init(_ handle: OpaquePointer, for declaration: CachedSQL) {
        self.handle = handle
        self.declaration = declaration
    }
}

/// One prepared statement, finalized in `deinit` (a cached one is reset and handed back to the
/// connection's cache instead). Reusable: `reset()` and bind again.
package final class SQLiteStatement {
    private let stmt: OpaquePointer
    private let connection: SQLiteConnection
    private let cache: CachedHandle?
    let sql: String

    fileprivate init(stmt: OpaquePointer, connection: SQLiteConnection, sql: String, cache: CachedHandle?) {
        self.stmt = stmt
        self.connection = connection
        self.sql = sql
        self.cache = cache
        cache?.inUse = true
    }

    deinit {
        if let cache {
            sqlite3_reset(stmt)
            cache.inUse = false
        } else {
            sqlite3_finalize(stmt)
        }
    }

    /// The SQLite handle, which tests compare to see that the cache gave the same statement.
    var handle: OpaquePointer { stmt }

    var columnCount: Int { Int(sqlite3_column_count(stmt)) }

    /// Resets the statement and clears its bindings, ready to bind again.
    package func reset() {
        // sqlite3_reset repeats the last step's error, which `step` has already thrown.
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    /// Resets the statement and keeps its bindings: constants bound once stay bound.
    package func rewind() {
        sqlite3_reset(stmt)
    }

    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(stmt, index)
        case .integer(let i): rc = sqlite3_bind_int64(stmt, index, i)
        case .real(let d): rc = sqlite3_bind_double(stmt, index, d)
        case .text(let s): rc = Self.bindText(stmt, s, at: index)
        case .blob(let b):
            rc = b.withUnsafeBytes { raw in
                sqlite3_bind_blob(stmt, index, raw.baseAddress, Int32(raw.count), ckschema_sqlite_transient())
            }
        }
        try connection.check(rc, sql: sql)
    }

    /// The one place text is bound: always with its length in bytes, so that a NUL inside a
    /// value is kept (length -1 would make SQLite stop at it: "k\0one" and "k\0two" became
    /// the same record name). CloudKit keeps NUL in a string, so ckschema does too
    /// (docs/security.md, "Values are kept exactly"). Text longer than Int32 bytes is
    /// SQLITE_TOOBIG, never a trap.
    static func bindText(_ stmt: OpaquePointer?, utf8 bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        guard let n = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
        // An empty buffer may have no address, and a NULL pointer would bind NULL, not "".
        guard n > 0, let base = bytes.baseAddress else { return sqlite3_bind_text(stmt, index, "", 0, ckschema_sqlite_transient()) }
        return sqlite3_bind_text(stmt, index, base.assumingMemoryBound(to: CChar.self), n, ckschema_sqlite_transient())
    }

    static func bindText(_ stmt: OpaquePointer?, _ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bindText(stmt, utf8: UnsafeRawBufferPointer($0), at: index) }
    }

    /// Binds UTF-8 bytes as text without building a `String`.
    func bindText(utf8 bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try connection.check(Self.bindText(stmt, utf8: bytes, at: index), sql: sql)
    }

    package func bind(_ text: String, at index: Int32) throws(SQLiteError) {
        try connection.check(Self.bindText(stmt, text, at: index), sql: sql)
    }

    package func bind(_ int: Int64, at index: Int32) throws(SQLiteError) {
        try connection.check(sqlite3_bind_int64(stmt, index, int), sql: sql)
    }

    /// Steps once: true when a row is ready, false when the statement is done.
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc, sql: sql)
    }

    func value(at column: Int) -> SQLiteValue {
        let c = Int32(column)
        switch sqlite3_column_type(stmt, c) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(stmt, c))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(stmt, c))
        case SQLITE_TEXT: return .text(string(at: column))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(stmt, c))
            guard n > 0, let p = sqlite3_column_blob(stmt, c) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }

    package func string(at column: Int) -> String {
        let c = Int32(column)
        guard let p = sqlite3_column_text(stmt, c) else { return "" }
        let n = Int(sqlite3_column_bytes(stmt, c))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The column's text as bytes, without building a `String`.
    package func withBytes<T>(at column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let c = Int32(column)
        let p = sqlite3_column_text(stmt, c)
        let n = Int(sqlite3_column_bytes(stmt, c))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }

    package func int64(at column: Int) -> Int64 { sqlite3_column_int64(stmt, Int32(column)) }
    func isNull(at column: Int) -> Bool { sqlite3_column_type(stmt, Int32(column)) == SQLITE_NULL }
}
