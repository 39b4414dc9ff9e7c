import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One row of an environment's migration history.
public struct AppliedMigration: Sendable, Hashable {
    public var version: Int
    public var name: String
    /// The migration file's normalized checksum (`SumFile.checksum`) when it was applied.
    public var checksum: String
    /// ISO 8601, UTC.
    public var appliedAt: String
    public var durationMilliseconds: Int
    /// The ckschema version that applied it.
    public var ckschemaVersion: String

    public init(version: Int, name: String, checksum: String, appliedAt: String, durationMilliseconds: Int, ckschemaVersion: String) {
        self.version = version
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
        self.durationMilliseconds = durationMilliseconds
        self.ckschemaVersion = ckschemaVersion
    }
}

/// One SQLite index (or full-text table) the store keeps for a schema index.
public struct StoreIndex: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case btree, fts, none }
    public var recordType: String
    /// A custom field's name, or a system field's (`createdAt`).
    public var field: String
    public var kind: Kind
    /// The SQLite index or virtual table name.
    public var sqlName: String
}

/// A query of the store and the values of its first parameters; the caller binds the last.
public struct StoreLookup: Sendable, Hashable {
    public var sql: String
    public var values: [String]

    public init(sql: String, values: [String]) {
        self.sql = sql
        self.values = values
    }
}

/// The local SQLite store that stands in for a CloudKit container: per environment its schema,
/// zones, records and migration history. See `docs/store.md` for the tables.
public final class Store {
    /// The store format this build reads and writes. A store with a higher one is refused.
    public static let formatVersion = 1
    /// `PRAGMA application_id` of a ckschema store ("CKSS"): tells it apart from another tool's database.
    public static let applicationID: Int32 = 0x434B_5353

    /// How the store is opened.
    public enum Access: Sendable { case read, write }

    public let path: String
    package let db: SQLiteConnection
    let access: Access

    /// Opens the store at `path`; with `.write` access, creates it (and its folder) when absent.
    /// Throws `InputError` (CK501) for a file that is not a ckschema store, CK502 for a newer
    /// format, CK503 for a read-only file when writing.
    public init(path: String, access: Access = .write) throws(InputError) {
        self.path = path
        self.access = access
        let fm = FileManager.default
        let exists = fm.fileExists(atPath: path)
        if !exists {
            if access == .read {
                throw InputError(Diagnostic(rule: StoreRules.notAStore, "no store at '\(path)'", at: nil,
                                        fix: "run `ckschema migrate apply` to create it, or check `store:` in ckschema.yaml"))
            }
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty, !fm.fileExists(atPath: dir) {
                do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                    throw InputError(Diagnostic(rule: StoreRules.readOnly, "cannot create the store's folder '\(dir)': \(error.localizedDescription)", at: nil))
                }
            }
        } else {
            try Self.checkHeader(path: path)
            if access == .write, !Self.isWritable(path) {
                throw InputError(Diagnostic(rule: StoreRules.readOnly, "the store '\(path)' is read-only", at: nil,
                                        fix: "make the file and its folder writable, or run a command that only reads the store"))
            }
        }
        // A write killed mid-transaction leaves a hot rollback journal beside the store: SQLite
        // must roll it back before anyone reads, and a read-only connection cannot (it failed
        // with "attempt to write a readonly database"). A command that only reads opens the
        // store read-write then, lets SQLite roll back, and makes the connection query-only.
        var mode: SQLiteConnection.Mode = access == .write ? .readWriteCreate : .readOnly
        let journal = path + "-journal"
        let hasJournal = access == .read && exists && ((try? fm.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0) > 0
        if hasJournal {
            guard Self.isWritable(path), Self.isWritable(journal) else {
                throw InputError(Diagnostic(rule: StoreRules.readOnly,
                                        "the store '\(path)' has a rollback journal ('\(journal)') left by a write that did not finish (a killed or crashed run); SQLite must roll it back before the store can be read, and this user cannot write the file",
                                        at: nil, fix: "run any ckschema command on the store as a user who can write it and its folder (the journal is rolled back then); do not delete the journal"))
            }
            mode = .readWrite
        }
        do {
            db = try SQLiteConnection(path: path, mode: mode)
            try db.setBusyTimeout(milliseconds: 5000)
            if hasJournal { try db.execute("PRAGMA query_only = 1") }
        } catch {
            throw Self.wrap(error, path: path, doing: "open the store")
        }
        if access == .write, db.isReadOnly {
            throw InputError(Diagnostic(rule: StoreRules.readOnly, "the store '\(path)' is read-only", at: nil,
                                    fix: "make the file and its folder writable"))
        }
        try checkOrCreate()
        if access == .write {
            do { try ensureRuntimeTables() } catch { throw Self.wrap(error, path: path, doing: "create the run-time tables") }
        }
    }

    /// A new in-memory store (`:memory:`) holding a copy of `template`'s database, with a store
    /// ID of its own (so that change tokens of the two never pass for each other's). A fake
    /// CloudKit per test copies one prepared store instead of creating its tables and indexes.
    public init(inMemoryCopyOf template: Store) throws(InputError) {
        path = ":memory:"
        access = .write
        do {
            db = try SQLiteConnection(path: path, mode: .readWriteCreate)
            try db.copyDatabase(from: template.db)
            try renewStoreID()
        } catch {
            throw Self.wrap(error, path: path, doing: "copy the store")
        }
    }

    private static func isWritable(_ path: String) -> Bool {
        let dir = (path as NSString).deletingLastPathComponent
        #if canImport(Glibc)
        return Glibc.access(path, W_OK) == 0 && Glibc.access(dir.isEmpty ? "." : dir, W_OK) == 0
        #else
        return Darwin.access(path, W_OK) == 0 && Darwin.access(dir.isEmpty ? "." : dir, W_OK) == 0
        #endif
    }

    /// Refuses a file that does not start with SQLite's header (an empty file is a new store).
    private static func checkHeader(path: String) throws(InputError) {
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw InputError(Diagnostic(rule: StoreRules.readOnly, "cannot read the store '\(path)'", at: nil, fix: "check the file's permissions"))
        }
        defer { try? h.close() }
        let head = (try? h.read(upToCount: 16)) ?? Data()
        if head.isEmpty { return }
        if head != Data("SQLite format 3\0".utf8) {
            throw InputError(Diagnostic(rule: StoreRules.notAStore, "'\(path)' is not an SQLite database, so it cannot be a ckschema store", at: nil,
                                    fix: "point `store:` in ckschema.yaml (or --store) at a ckschema store, or move the file away and let ckschema create a new one"))
        }
    }

    /// Creates the tables of an empty database, or checks that an existing one is a ckschema store.
    private func checkOrCreate() throws(InputError) {
        do {
            let appID = Int32(truncatingIfNeeded: try db.scalar("PRAGMA application_id")?.integer ?? 0)
            let tables = try db.scalar("SELECT count(*) FROM sqlite_master")?.integer ?? 0
            if appID != Self.applicationID {
                if tables > 0 || appID != 0 {
                    throw InputError(Diagnostic(rule: StoreRules.notAStore,
                                            "'\(path)' is an SQLite database of another tool (application_id \(appID), \(tables) schema objects), not a ckschema store",
                                            at: nil, fix: "point `store:` in ckschema.yaml (or --store) at a ckschema store; ckschema never writes into another tool's database"))
                }
                guard access == .write else {
                    throw InputError(Diagnostic(rule: StoreRules.notAStore, "'\(path)' is an empty database, not a ckschema store", at: nil))
                }
                try db.transaction { try self.createTables() }
                return
            }
            let version = Int(try db.scalar("SELECT value FROM meta WHERE key = 'format_version'")?.text ?? "") ?? 0
            if version > Self.formatVersion {
                throw InputError(Diagnostic(rule: StoreRules.newerFormat,
                                        "the store '\(path)' has format version \(version); this ckschema reads version \(Self.formatVersion) and will not rewrite a newer store",
                                        at: nil, fix: "upgrade ckschema to the version that wrote the store"))
            }
            if version < 1 {
                throw InputError(Diagnostic(rule: StoreRules.notAStore, "the store '\(path)' has no format version; it is damaged", at: nil,
                                            fix: StoreRules.rebuildAdvice(path)))
            }
            // Every command opens the store here: one check of what a store holds, for all.
            try checkInvariants()
        } catch let e as InputError {
            throw e
        } catch {
            throw Self.wrap(error, path: path, doing: "read the store")
        }
    }

    private func createTables() throws {
        try db.executeTrustedScript("""
        PRAGMA application_id = \(Self.applicationID);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        INSERT INTO meta VALUES ('format', 'ckschema-store'), ('format_version', '\(Self.formatVersion)'),
            ('created_by', 'ckschema \(CKSchemaVersion.current)'), ('sequence', '0');
        CREATE TABLE environments (
            name TEXT PRIMARY KEY CHECK (name IN ('development', 'production')),
            schema_yaml TEXT NOT NULL, schema_hash TEXT NOT NULL, schema_json TEXT NOT NULL, updated_at TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE zones (
            env TEXT NOT NULL REFERENCES environments(name), name TEXT NOT NULL,
            database TEXT NOT NULL, capabilities TEXT NOT NULL, PRIMARY KEY (env, name)
        ) WITHOUT ROWID;
        \(RecordsTable.createSQL)
        CREATE TABLE migrations (
            env TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, ckschema_version TEXT NOT NULL,
            PRIMARY KEY (env, version)
        ) WITHOUT ROWID;
        CREATE TABLE store_indexes (
            env TEXT NOT NULL, record_type TEXT NOT NULL, field TEXT NOT NULL, kind TEXT NOT NULL, sql_name TEXT NOT NULL,
            PRIMARY KEY (env, record_type, field, kind)
        ) WITHOUT ROWID;
        CREATE TABLE lock (
            id INTEGER PRIMARY KEY CHECK (id = 1), pid INTEGER NOT NULL, pid_start TEXT NOT NULL, host TEXT NOT NULL,
            command TEXT NOT NULL, acquired_at TEXT NOT NULL, token TEXT NOT NULL
        );
        """)
        let empty = Schema()
        for env in Environment.allCases { try writeSchema(empty, env: env) }
    }

    // MARK: Reading

    /// The current schema of an environment.
    public func schema(_ env: Environment) throws(InputError) -> Schema {
        try guarded("read the \(env.rawValue) schema") {
            let json = try self.db.scalar("SELECT schema_json FROM environments WHERE name = ?", [.text(env.rawValue)])?.text ?? ""
            do { return try StoreSchemaCodec.decode(json) } catch let e as StoreSchemaCodec.DecodeError {
                throw InputError(Diagnostic(rule: StoreRules.notAStore, "the store's \(env.rawValue) schema is damaged: \(e.message)", at: nil,
                                            fix: StoreRules.rebuildAdvice(self.path)))
            }
        }
    }

    /// The production schema the last `promote --apply` replaced, or nil before the first
    /// deploy (and in a store written by a ckschema that did not keep it). Kept in `meta`, so
    /// the store's format is unchanged: between `promote --apply` and `verify --update` the
    /// committed `.ckdb` is still the export of this schema, and `verify --plan` binds the plan
    /// `promote --plan` computed from it.
    public func productionBeforeLastDeploy() throws(InputError) -> Schema? {
        try guarded("read the production schema the last deploy replaced") {
            guard let json = try self.db.scalar("SELECT value FROM meta WHERE key = ?", [.text(Self.replacedProductionKey)])?.text else { return nil }
            do { return try StoreSchemaCodec.decode(json) } catch let e as StoreSchemaCodec.DecodeError {
                throw InputError(Diagnostic(rule: StoreRules.notAStore, "the production schema the store's last deploy replaced is damaged: \(e.message)", at: nil,
                                            fix: "deploy again (`ckschema promote --plan`, then `--apply`), or rebuild the store"))
            }
        }
    }

    static let replacedProductionKey = "production_before_last_deploy"

    /// The SHA-256 of the environment's canonical schema text, as stored.
    public func schemaHash(_ env: Environment) throws(InputError) -> String {
        try guarded("read the \(env.rawValue) schema") {
            try self.db.scalar("SELECT schema_hash FROM environments WHERE name = ?", [.text(env.rawValue)])?.text ?? ""
        }
    }

    /// The environment's migration history, by version.
    public func history(_ env: Environment) throws(InputError) -> [AppliedMigration] {
        try guarded("read the migration history") {
            try self.db.rows("SELECT version, name, checksum, applied_at, duration_ms, ckschema_version FROM migrations WHERE env = ? ORDER BY version",
                             [.text(env.rawValue)]).map {
                AppliedMigration(version: Int($0[0].integer ?? 0), name: $0[1].text ?? "", checksum: $0[2].text ?? "",
                                 appliedAt: $0[3].text ?? "", durationMilliseconds: Int($0[4].integer ?? 0), ckschemaVersion: $0[5].text ?? "")
            }
        }
    }

    /// How many records an environment holds (of one type, when given).
    public func recordCount(_ env: Environment, recordType: String? = nil) throws(InputError) -> Int {
        try guarded("count records") { Int(clamping: try countRecords(env: env, recordType: recordType)) }
    }

    /// The SQLite indexes and full-text tables the store keeps for an environment's schema.
    public func indexes(_ env: Environment) throws(InputError) -> [StoreIndex] {
        try guarded("read the index catalog") {
            try self.db.rows("SELECT record_type, field, kind, sql_name FROM store_indexes WHERE env = ? ORDER BY record_type, field, kind", [.text(env.rawValue)]).map {
                StoreIndex(recordType: $0[0].text ?? "", field: $0[1].text ?? "", kind: StoreIndex.Kind(rawValue: $0[2].text ?? "") ?? .none, sqlName: $0[3].text ?? "")
            }
        }
    }

    /// The fields JSON of one record, or nil when there is none.
    public func recordFields(_ env: Environment, zone: String = Zone.defaultZoneName, recordName: String) throws(InputError) -> String? {
        try guarded("read a record") {
            try withRecordFields(env: env, zone: zone, name: recordName) { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The SQL that finds records of a type by one field's value, as the store's indexes serve
    /// it, with the environment and type as bound values (`?1`, `?2`; the field's value is `?3`).
    ///
    /// Bound, not spliced: SQLite still uses the partial index `WHERE env = '…' AND record_type
    /// = '…'`, because when a term of the index's WHERE meets a parameter the planner compares
    /// the parameter's bound value and re-prepares the statement if it is bound again
    /// (`sqlite3ExprCompare`; SQLite's test/index9.test, "partial indexes work with bound
    /// variables"). `StoreQuery` keeps literals for another reason: its `INDEXED BY` is checked
    /// when the statement is prepared, before any value is bound.
    public static func equalityQuery(env: Environment, recordType: String, field: String) throws(InputError) -> StoreLookup {
        typealias C = RecordsTable.Column
        let value: String
        do { value = try StoreIndexer.valueExpression(field: field, reference: false) } catch { throw InputError(error.diagnostic) }
        return StoreLookup(sql: "SELECT \(C.recordName) FROM \(RecordsTable.name) WHERE \(C.env) = ?1 AND \(C.recordType) = ?2 AND \(value) = ?3",
                           values: [env.rawValue, recordType])
    }

    /// The SQL of a full-text search on a searchable field (FTS5 `MATCH`).
    public static func searchQuery(env: Environment, recordType: String, field: String) -> String {
        typealias C = RecordsTable.Column
        return "SELECT r.\(C.recordName) FROM \(RecordsTable.name) r JOIN \(sqlIdentifier(StoreIndexer.ftsName(env: env, recordType: recordType, field: field))) f ON f.rowid = r.\(C.id) WHERE f.value MATCH ?"
    }

    /// Runs a query that takes one text parameter and returns the first column of each row (for tests and `docs/store.md`).
    public func strings(_ sql: String, _ parameter: String) throws(InputError) -> [String] {
        try strings(StoreLookup(sql: sql, values: []), parameter)
    }

    /// Runs a lookup with its own values, then `parameter`, bound.
    public func strings(_ lookup: StoreLookup, _ parameter: String) throws(InputError) -> [String] {
        try guarded("run a query") { try self.db.rows(lookup.sql, (lookup.values + [parameter]).map { .text($0) }).map { $0[0].text ?? "" } }
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for a statement: one line per step.
    public func queryPlan(_ sql: String) throws(InputError) -> [String] {
        try queryPlan(StoreLookup(sql: sql, values: []))
    }

    /// SQLite's `EXPLAIN QUERY PLAN` for a lookup with its values bound (the last parameter "x").
    public func queryPlan(_ lookup: StoreLookup) throws(InputError) -> [String] {
        try guarded("explain a query") {
            try self.db.rows("EXPLAIN QUERY PLAN " + lookup.sql, (lookup.values + ["x"]).map { .text($0) }).map { $0[3].text ?? "" }
        }
    }

    /// A SHA-256 over every row of every table except the lock, and the schema objects: two
    /// stores with equal digests hold the same content. Tests use it to prove a failure changed nothing.
    public func contentDigest() throws(InputError) -> String {
        try guarded("read the store") {
            var h = SHA256()
            let objects = try self.db.rows("SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            for o in objects { h.update(Array("\(o[0].text ?? "")|\(o[1].text ?? "")|\(o[2].text ?? "")\n".utf8)) }
            for table in ["meta", "environments", "zones", "records", "migrations", "store_indexes"] {
                let lines = try self.db.rows("SELECT * FROM \(table)").map { $0.map { "\($0)" }.joined(separator: "|") }.sorted()
                for line in lines { h.update(Array(line.utf8)); h.update([0x0A]) }
            }
            return h.finalize().map { String(format: "%02x", $0) }.joined()
        }
    }

    // MARK: Writing (inside a transaction the caller owns)

    /// Replaces an environment's schema, zones and SQLite indexes with `schema`'s.
    package func writeSchema(_ schema: Schema, env: Environment) throws {
        // Every name is checked where it enters the store, whatever lint's suppressions said.
        for t in schema.recordTypes {
            try StoreName.check(t.name, "record type")
            for f in t.fields { try StoreName.check(f.name, "field", of: t.name) }
        }
        try db.run("""
            INSERT INTO environments (name, schema_yaml, schema_hash, schema_json, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (name) DO UPDATE SET schema_yaml = excluded.schema_yaml, schema_hash = excluded.schema_hash,
                schema_json = excluded.schema_json, updated_at = excluded.updated_at
            """, [.text(env.rawValue), .text(schema.canonicalYAML), .text(schema.canonicalHash), .text(StoreSchemaCodec.encode(schema)), .text(Self.now())])
        try db.run("DELETE FROM zones WHERE env = ?", [.text(env.rawValue)])
        for z in schema.zones {
            try db.run("INSERT INTO zones VALUES (?, ?, ?, ?)", [.text(env.rawValue), .text(z.name), .text(z.database.rawValue),
                                                                .text(z.capabilities.sorted().map(\.rawValue).joined(separator: ","))])
        }
        try StoreIndexer(db: db).sync(schema: schema, env: env)
    }

    /// Gives `type` the SQLite objects of its indexes before its first record in `env` is
    /// saved (`StoreIndexer.sync` creates them only for types that hold records). A write
    /// that saves records calls it once per type, inside its transaction.
    package func materializeIndexes(of type: RecordType, env: Environment) throws {
        try StoreIndexer(db: db).materialize(type, env: env)
    }

    /// Whether `env` holds a record of `recordType` (one indexed lookup).
    public func holdsRecords(env: Environment, recordType: String) throws(InputError) -> Bool {
        try guarded("read the records") { try StoreIndexer(db: self.db).holdsRecords(env: env, recordType: recordType) }
    }

    /// Keeps `schema` as the production schema a deploy replaces (`productionBeforeLastDeploy`).
    package func recordReplacedProduction(_ schema: Schema) throws {
        try db.run("INSERT OR REPLACE INTO meta VALUES (?, ?)", [.text(Self.replacedProductionKey), .text(StoreSchemaCodec.encode(schema))])
    }

    package func recordHistory(_ m: AppliedMigration, env: Environment) throws {
        try db.run("INSERT INTO migrations VALUES (?, ?, ?, ?, ?, ?, ?)", [
            .text(env.rawValue), .integer(Int64(m.version)), .text(m.name), .text(m.checksum),
            .text(m.appliedAt), .integer(Int64(m.durationMilliseconds)), .text(m.ckschemaVersion),
        ])
    }

    /// Forgets an environment's migration history (`migrate baseline --force`).
    package func clearHistory(env: Environment) throws {
        try db.run("DELETE FROM migrations WHERE env = ?", [.text(env.rawValue)])
    }

    /// Limits the file to `pages` pages (tests use it to stand in for a full disk).
    func limitPages(_ pages: Int) throws {
        _ = try db.scalar("PRAGMA max_page_count = \(pages)")
    }

    // MARK: Helpers

    /// Runs `body`, turning any error into an `InputError` with a store code.
    package func guarded<T>(_ doing: String, _ body: () throws -> T) throws(InputError) -> T {
        do { return try body() } catch let e as InputError { throw e } catch { throw Self.wrap(error, path: path, doing: doing) }
    }

    static func wrap(_ error: any Error, path: String, doing: String) -> InputError {
        if let unsafe = error as? StoreName.Unsafe { return InputError(unsafe.diagnostic) }
        guard let e = error as? SQLiteError else {
            // Never a raw Swift error value: the JSON parser's error has its own words.
            if let p = error as? JSONValue.ParseError {
                return InputError(Diagnostic(rule: StoreRules.notAStore, "could not \(doing): the store '\(path)' holds JSON that does not parse (\(p.message) at byte \(p.offset + 1)); it is damaged", at: nil,
                                         fix: StoreRules.rebuildAdvice(path)))
            }
            return InputError(Diagnostic(rule: StoreRules.sqlite, "could not \(doing) in '\(path)': \(error)", at: nil))
        }
        if e.isFull {
            return InputError(Diagnostic(rule: StoreRules.full, "could not \(doing): the disk holding '\(path)' is full; nothing was changed",
                                     at: nil, fix: "free some disk space and run the command again"))
        }
        if e.extendedCode == 776 || e.extendedCode == 264 {
            // SQLITE_READONLY_ROLLBACK / SQLITE_READONLY_RECOVERY: a hot journal or WAL needs a writer.
            return InputError(Diagnostic(rule: StoreRules.readOnly, "could not \(doing): the store '\(path)' needs a rollback of an unfinished write, which a read-only connection cannot do (\(e.message))", at: nil,
                                     fix: "run the command as a user who can write the store and its folder; do not delete the '-journal' file"))
        }
        if e.isReadOnly {
            return InputError(Diagnostic(rule: StoreRules.readOnly, "could not \(doing): the store '\(path)' is read-only (\(e.message))", at: nil,
                                     fix: "make the file and its folder writable"))
        }
        if e.isBusy {
            return InputError(Diagnostic(rule: StoreRules.locked, "could not \(doing): the store '\(path)' is busy (another process holds SQLite's lock)", at: nil,
                                     fix: "wait for the other ckschema command to finish, then run this one again"))
        }
        if e.isNotADatabase {
            return InputError(Diagnostic(rule: StoreRules.notAStore, "'\(path)' is not a usable SQLite database (\(e.message)): it is damaged", at: nil,
                                     fix: StoreRules.rebuildAdvice(path) + "; or point `store:` in ckschema.yaml (or --store) at another store"))
        }
        return InputError(Diagnostic(rule: StoreRules.sqlite, "could not \(doing) in '\(path)': \(e)", at: nil))
    }

    /// A quote doubled inside; a name without one (every name CloudKit's grammar allows) is
    /// not searched by Foundation's `replacingOccurrences`, which was 17% of a baseline's
    /// instructions (callgrind, 2,000 types; Benchmarks/RESULTS.md).
    package static func sqlLiteral(_ s: String) -> String {
        s.utf8.contains(UInt8(ascii: "'")) ? "'" + s.replacingOccurrences(of: "'", with: "''") + "'" : "'" + s + "'"
    }
    package static func sqlIdentifier(_ s: String) -> String {
        s.utf8.contains(UInt8(ascii: "\"")) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "\"" + s + "\""
    }

    package static func now() -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date())
    }
}
