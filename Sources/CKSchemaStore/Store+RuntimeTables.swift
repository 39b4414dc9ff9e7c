import Foundation

/// The store's run-time tables: the change log that `changes` reads and the notifications
/// that saves and deletes produce (see `docs/runtime.md`). They are created on first write
/// access, so that a store written by an earlier ckschema gains them without a format change.
extension Store {
    /// Creates the change log, its triggers, the notifications table and the store's ID when absent.
    func ensureRuntimeTables() throws {
        let exists = try db.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('record_changes', 'records:high-water')")?.integer ?? 0
        if exists >= 2 { return }
        if exists == 1, try hasRuntimeTables() {
            // A store written before the high-water mark: it gains the trigger, nothing else changes.
            try db.transaction { try self.db.executeTrustedScript(Self.highWaterTrigger) }
            return
        }
        try db.transaction {
            // Updates and deletes of `records` (import, delete, migrations' data steps) are logged
            // by triggers, so no write path can forget to; the log holds ids and names, not values.
            // Inserts are not logged: `records.id` only grows, so a token's largest id says which
            // records were created after it (logging every insert made a fresh import 1.44x slower).
            // No AUTOINCREMENT and no secondary index: log rows are never deleted, so their rowids
            // only grow too, and `changes --since` reads the rowid range after its token.
            // Fixed text with no input in it: the one kind of SQL that may be a script.
            // The names of `records` and its columns come from `RecordsTable` (constants, no input).
            typealias C = RecordsTable.Column
            let records = RecordsTable.name
            try self.db.executeTrustedScript("""
                CREATE TABLE IF NOT EXISTS record_changes (
                    seq INTEGER PRIMARY KEY, record_id INTEGER,
                    env TEXT, zone TEXT, record_name TEXT, deleted INTEGER NOT NULL DEFAULT 0);
                CREATE TRIGGER IF NOT EXISTS "changes:update" AFTER UPDATE ON \(records) BEGIN
                    INSERT INTO record_changes (record_id) VALUES (new.\(C.id)); END;
                CREATE TRIGGER IF NOT EXISTS "changes:delete" AFTER DELETE ON \(records) BEGIN
                    INSERT INTO record_changes (env, zone, record_name, deleted) VALUES (old.\(C.env), old.\(C.zone), old.\(C.recordName), 1); END;
                CREATE TABLE IF NOT EXISTS notifications (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, env TEXT NOT NULL, body TEXT NOT NULL);
                """ + Self.highWaterTrigger)
            try self.db.run("INSERT OR IGNORE INTO meta VALUES ('store_id', ?)", [.text(Self.newStoreID())])
        }
    }

    private static func newStoreID() -> String {
        var id = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(id.next() as UInt32, radix: 16) }.joined()
    }

    /// Gives the store a new random ID (a copy of another store must not share its tokens).
    func renewStoreID() throws {
        try db.run("UPDATE meta SET value = ? WHERE key = 'store_id'", [.text(Self.newStoreID())])
    }

    /// The key in `meta` of the largest record id ever deleted while it was the largest.
    static let highWaterKey = "record_id_high"

    /// `records.id` is `INTEGER PRIMARY KEY` without AUTOINCREMENT (a store's table cannot gain
    /// it without being rebuilt), so SQLite would give a new record the id of the newest one
    /// deleted: a change token holding that id would stop seeing new records, and a token
    /// taken before the delete would be "newer than the store". The trigger keeps the largest
    /// deleted id in `meta`; `insertNewRecords` (and `RecordsTable.insert`, which only the
    /// tests still call) numbers new records above it and
    /// `lastRecordID()` counts it, so ids and tokens only go forwards, as CloudKit's
    /// CKServerChangeToken does (CKFetchRecordZoneChangesOperation). Fixed text, no input.
    static let highWaterTrigger = """
        CREATE TRIGGER IF NOT EXISTS "records:high-water" AFTER DELETE ON \(RecordsTable.name)
        WHEN old.\(RecordsTable.Column.id) > coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(highWaterKey)'), 0)
        BEGIN INSERT OR REPLACE INTO meta (key, value) VALUES ('\(highWaterKey)', old.\(RecordsTable.Column.id)); END;
        """

    /// True when the run-time tables exist (a store written before them has none until written).
    package func hasRuntimeTables() throws -> Bool {
        (try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'record_changes'")?.integer ?? 0) > 0
    }

    /// The store's random ID, which change tokens carry ("" before the run-time tables exist).
    package func storeID() throws -> String {
        try db.scalar("SELECT value FROM meta WHERE key = 'store_id'")?.text ?? ""
    }
}
