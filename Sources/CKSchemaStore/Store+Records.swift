import CKSchemaModel

/// The statements of the `records` table that runtime (import, export, delete, query, zone
/// changes, notifications) and migrations run: each one written once here from `RecordsTable`'s
/// columns, every value bound (text with its byte length), and the fixed ones cached on the
/// connection so that a statement run per record is compiled once per store.
extension Store {
    private typealias T = RecordsTable
    private typealias C = RecordsTable.Column

    // MARK: One record

    /// Inserts a new record (created and modified at `now`, milliseconds since 1970). False,
    /// and nothing written, when the environment's zone already has a record of that name.
    package func insertRecord(env: Environment, zone: String, type: String, name: String, changeTag: String, now: Int64, fields: String) throws -> Bool {
        let s = try db.cached(T.insert)
        try s.bind(env.rawValue, at: 1); try s.bind(zone, at: 2); try s.bind(type, at: 3); try s.bind(name, at: 4)
        try s.bind(changeTag, at: 5); try s.bind(now, at: 6); try s.bind(fields, at: 7)
        try s.step()
        return db.changes == 1
    }

    /// Which of `keys` (zone, record name) the environment already holds, as
    /// "zone U+0001 name": one look-up of the records' unique key per name, by one cached
    /// statement. (A statement of 100 names bound to `IN (...)` cost about twice as much a
    /// name, 12,000 instructions, callgrind: SQLite first builds an ephemeral index of the list,
    /// then seeks each.)
    package func existingRecordKeys(env: Environment, _ keys: [(zone: String, name: String)]) throws -> Set<String> {
        var out = Set<String>()
        guard !keys.isEmpty else { return out }
        let s = try db.cached(T.existsByKey)
        try s.bind(env.rawValue, at: 1)
        for k in keys {
            s.rewind()
            try s.bind(k.zone, at: 2); try s.bind(k.name, at: 3)
            if try s.step() { out.insert(k.zone + "\u{1}" + k.name) }
        }
        return out
    }

    /// Inserts records the environment does not hold yet (the caller checked, with
    /// `existingRecordKeys`), numbered in order above every id a record ever had, as
    /// `insertRecord` numbers them one at a time: the same ids, change tags and fields, in
    /// one statement per `RecordsTable.insertRows` records. One statement for many rows
    /// matters to a searchable field: SQLite opens a statement savepoint on every write
    /// statement whose triggers write, and FTS5 writes its pending terms out as a new segment
    /// at each savepoint, so one record per statement was one FTS5 segment (and its merges)
    /// per record. Throws SQLITE_CONSTRAINT if one of them exists after all. Returns each
    /// row's id, in order.
    @discardableResult
    package func insertNewRecords(env: Environment, _ rows: [(zone: String, type: String, name: String, changeTag: String, fields: String)], now: Int64) throws -> [Int64] {
        guard !rows.isEmpty else { return [] }
        let first = try lastRecordID() + 1
        var next = first - 1
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + T.insertRows)]
            start += chunk.count
            let s = try chunk.count == T.insertRows ? db.cached(T.insertMany) : db.prepare(T.insertValues(rows: chunk.count))
            try s.bind(env.rawValue, at: 1); try s.bind(now, at: 2)
            for (k, r) in chunk.enumerated() {
                next += 1
                let b = Int32(3 + 6 * k)
                try s.bind(next, at: b); try s.bind(r.zone, at: b + 1); try s.bind(r.type, at: b + 2); try s.bind(r.name, at: b + 3)
                try s.bind(r.changeTag, at: b + 4); try s.bind(r.fields, at: b + 5)
            }
            try s.step()
        }
        return Array(first...next)
    }

    /// An existing record's row (its type, change tag and times, not its fields), or nil when
    /// there is none.
    package func recordRow(env: Environment, zone: String, name: String) throws -> RecordRows.Row? {
        let s = try db.cached(T.rowByKey)
        try bindKey(s, env, zone, name)
        guard try s.step() else { return nil }
        return RecordRows.row(s)
    }

    /// An existing record's row and its fields JSON, read in one statement (a save that
    /// reports the version it replaces, `RecordImporter.Options.reportsSaved`), or nil.
    package func recordRowAndFields(env: Environment, zone: String, name: String) throws -> (row: RecordRows.Row, fields: String)? {
        let s = try db.cached(T.rowAndFieldsByKey)
        try bindKey(s, env, zone, name)
        guard try s.step() else { return nil }
        return (RecordRows.row(s), s.string(at: T.rowColumns.count - 1))
    }

    /// Saves an existing record's fields: all of them replaced (`merging: false`, save policy
    /// allKeys and ifServerRecordUnchanged), or only the keys given (`json_patch`, changedKeys).
    package func saveRecordFields(env: Environment, zone: String, name: String, fields: String, merging: Bool, changeTag: String, now: Int64) throws {
        let s = try db.cached(merging ? T.merge : T.replace)
        try bindKey(s, env, zone, name)
        try s.bind(fields, at: 4); try s.bind(changeTag, at: 5); try s.bind(now, at: 6)
        try s.step()
    }

    /// Deletes one record; false when there was none.
    package func deleteRecord(env: Environment, zone: String, name: String) throws -> Bool {
        let s = try db.cached(T.delete)
        try bindKey(s, env, zone, name)
        try s.step()
        return db.changes == 1
    }

    /// `body` over one record's fields JSON (as bytes); nil when there is no such record.
    package func withRecordFields<R>(env: Environment, zone: String, name: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        let s = try db.cached(T.fieldsByKey)
        try bindKey(s, env, zone, name)
        guard try s.step() else { return nil }
        return try s.withBytes(at: 0, body)
    }

    private func bindKey(_ s: SQLiteStatement, _ env: Environment, _ zone: String, _ name: String) throws(SQLiteError) {
        try s.bind(env.rawValue, at: 1); try s.bind(zone, at: 2); try s.bind(name, at: 3)
    }

    // MARK: Counts and positions

    /// How many records the environment holds (of one type, when given).
    package func countRecords(env: Environment, recordType: String?) throws -> Int64 {
        let s = try db.cached(recordType == nil ? T.count : T.countOfType)
        try s.bind(env.rawValue, at: 1)
        if let recordType { try s.bind(recordType, at: 2) }
        return try s.step() ? s.int64(at: 0) : 0
    }

    /// How many records of a type each zone of the environment holds (zones without one left out).
    package func recordCountsByZone(env: Environment, recordType: String) throws -> [(zone: String, count: Int64)] {
        let s = try db.cached(T.zonesOfType)
        try s.bind(env.rawValue, at: 1); try s.bind(recordType, at: 2)
        var out: [(zone: String, count: Int64)] = []
        while try s.step() { out.append((s.string(at: 0), s.int64(at: 1))) }
        return out
    }

    /// The largest `records.id` (0 for none): the records a write creates come after it, since
    /// ids only grow.
    package func lastRecordID() throws -> Int64 {
        let s = try db.cached(T.maxID)
        return try s.step() ? s.int64(at: 0) : 0
    }

    /// The zone and name of every record of a type, in the order they were first saved.
    package func recordKeys(env: Environment, recordType: String) throws -> [(zone: String, name: String)] {
        let s = try db.cached(T.keysOfType)
        try s.bind(env.rawValue, at: 1); try s.bind(recordType, at: 2)
        var out: [(zone: String, name: String)] = []
        while try s.step() { out.append((s.string(at: 0), s.string(at: 1))) }
        return out
    }

    // MARK: Scans of whole records

    /// The environment's records (of one type, when given) in the order they were first saved
    /// (`records export`).
    package func exportRows(env: Environment, recordType: String?) throws -> RecordRows {
        let s = try db.prepare(T.selectRows + " WHERE \(C.env) = ?1" + (recordType == nil ? "" : " AND \(C.recordType) = ?2") + " ORDER BY \(C.id)")
        try s.bind(env.rawValue, at: 1)
        if let recordType { try s.bind(recordType, at: 2) }
        return RecordRows(statement: s)
    }

    /// A zone's records in the order they were first saved: all of them, or (`since`) those
    /// created after the record id or updated after the change-log entry (`changes`).
    package func zoneRows(env: Environment, zone: String, since: (changeSeq: Int64, recordID: Int64)?) throws -> RecordRows {
        var sql = T.selectRows + " WHERE \(C.env) = ?1 AND \(C.zone) = ?2"
        if since != nil {
            sql += " AND (\(C.id) > ?4 OR \(C.id) IN (SELECT record_id FROM record_changes WHERE seq > ?3 AND record_id IS NOT NULL))"
        }
        let s = try db.prepare(sql + " ORDER BY \(C.id)")
        try s.bind([.text(env.rawValue), .text(zone)] + (since.map { [.integer($0.changeSeq), .integer($0.recordID)] } ?? []))
        return RecordRows(statement: s)
    }

    /// The rows of a query that `StoreQuery` composed: `RecordsTable.selectRows`, then its own
    /// `INDEXED BY`, `WHERE` and `ORDER BY`, every value bound. SQL that does not start with
    /// the row's columns is refused (SQLITE_MISUSE), so the decoding always matches.
    package func queryRows(_ sql: String, _ bindings: [SQLiteValue]) throws -> RecordRows {
        guard sql.hasPrefix(T.selectRows) else {
            throw SQLiteError(code: 21, message: "a query of records must start with RecordsTable.selectRows", sql: sql)
        }
        let s = try db.prepare(sql)
        try s.bind(bindings)
        return RecordRows(statement: s)
    }

    /// The names of a zone's records deleted after change-log entry `seq` and not saved again,
    /// in the order they were deleted.
    package func deletedRecordNames(env: Environment, zone: String, after seq: Int64, _ body: (String) throws -> Void) throws {
        let s = try db.prepare("""
            SELECT DISTINCT d.record_name FROM record_changes d WHERE d.seq > ?3 AND d.deleted = 1 AND d.env = ?1 AND d.zone = ?2
            AND NOT EXISTS (SELECT 1 FROM \(T.name) r WHERE r.\(C.env) = ?1 AND r.\(C.zone) = ?2 AND r.\(C.recordName) = d.record_name) ORDER BY d.seq
            """)
        try s.bind([.text(env.rawValue), .text(zone), .integer(seq)])
        while try s.step() { try body(s.string(at: 0)) }
    }

    // MARK: Subscriptions' views of records

    /// A statement that reads `columns` (SQL over one row, the values they use bound first by
    /// the caller) of the record whose env, zone and name are bound after them. Prepared, not
    /// cached: the caller keeps it, and the bindings it made once survive `rewind()`.
    package func prepareRecordLookup(selecting columns: [String]) throws -> SQLiteStatement {
        try db.prepare("SELECT " + columns.joined(separator: ", ") + " FROM \(T.name) WHERE \(T.byKey)")
    }

    /// A statement that reads `columns`, then zone and name, of the environment's records after
    /// a record id, bound after `columns`' values: id, then env. `+env` keeps SQLite on the rowid
    /// range (with `env =` it walked `records_by_type` over the whole environment per batch).
    package func prepareRecordsCreated(selecting columns: [String]) throws -> SQLiteStatement {
        try db.prepare("SELECT " + (columns + [C.zone.rawValue, C.recordName.rawValue]).joined(separator: ", ")
                       + " FROM \(T.name) WHERE \(C.id) > ? AND +\(C.env) = ?")
    }

    /// Per (zone, referring record, target) the deleteSelf references the environment's records
    /// hold, for CK418's count (CKRecord.Reference: at most 750 to one target).
    package func deleteSelfReferences(env: Environment, _ body: (_ zone: String, _ referrer: String, _ target: String, _ count: Int64) throws -> Void) throws {
        // The LIKE skips, without parsing its JSON, every record that has no such reference.
        let s = try db.prepare("""
            SELECT r.\(C.zone), r.\(C.recordName), json_extract(t.value, '$.recordName'), count(*)
            FROM \(T.name) r, json_tree(r.\(C.fields)) t
            WHERE r.\(C.env) = ?1 AND (r.\(C.fields) LIKE '%DELETE_SELF%' OR r.\(C.fields) LIKE '%deleteSelf%')
              AND t.type = 'object' AND json_extract(t.value, '$.action') IN ('DELETE_SELF', 'deleteSelf')
              AND json_type(t.value, '$.recordName') = 'text'
            GROUP BY 1, 2, 3
            """)
        try s.bind(env.rawValue, at: 1)
        while try s.step() { try body(s.string(at: 0), s.string(at: 1), s.string(at: 2), s.int64(at: 3)) }
    }

    // MARK: The store's other run-time statements

    private static let lastChangeSQL = CachedSQL("SELECT coalesce(max(seq), 0) FROM record_changes")
    private static let addNotificationSQL = CachedSQL("INSERT INTO notifications (env, body) VALUES (?1, ?2)")

    /// Advances the store's change-tag sequence and returns it in base 36: every change tag a
    /// write gives carries it, so tags of two writes never collide.
    package func nextChangeTagSequence() throws -> String {
        try db.run("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence'")
        return String(Int(try db.scalar("SELECT value FROM meta WHERE key = 'sequence'")?.text ?? "0") ?? 0, radix: 36)
    }

    /// The change log's last entry (0 for none, or before the run-time tables exist).
    package func lastChangeSeq() throws -> Int64 {
        guard try hasRuntimeTables() else { return 0 }
        let s = try db.cached(Self.lastChangeSQL)
        return try s.step() ? s.int64(at: 0) : 0
    }

    /// Records one notification's JSON body for the environment.
    package func addNotification(env: Environment, body: String) throws {
        let s = try db.cached(Self.addNotificationSQL)
        try s.bind(env.rawValue, at: 1); try s.bind(body, at: 2)
        try s.step()
    }

    /// `body` over the environment's notifications after sequence number `since`, oldest first:
    /// each one's sequence number and JSON body (as bytes). Nothing before the run-time tables exist.
    package func notifications(env: Environment, since: Int64, _ body: (Int64, UnsafeRawBufferPointer) throws -> Void) throws {
        guard try hasRuntimeTables() else { return }
        let s = try db.prepare("SELECT seq, body FROM notifications WHERE env = ?1 AND seq > ?2 ORDER BY seq")
        try s.bind([.text(env.rawValue), .integer(since)])
        while try s.step() {
            let seq = s.int64(at: 0)
            try s.withBytes(at: 1) { try body(seq, $0) }
        }
    }
}

/// A data step's change to one field of every record of a type (`backfill`, `copy`): the field
/// at `path` (a JSON path from `StoreName.jsonPath`) set to `value` (an SQL expression over the
/// record's `fields`, binding `valueParameters` in order) in the records where `conditions` hold.
/// Migrations say what the expression is; the store writes the statement around it.
package struct RecordsFieldUpdate: Sendable {
    package var recordType: String
    package var path: String
    package var value: String
    package var valueParameters: [SQLiteValue]
    /// Conditions over `fields`, joined by AND (they bind nothing).
    package var conditions: [String]

    package init(recordType: String, path: String, value: String, valueParameters: [SQLiteValue] = [], conditions: [String] = []) {
        self.recordType = recordType
        self.path = path
        self.value = value
        self.valueParameters = valueParameters
        self.conditions = conditions
    }

    private typealias C = RecordsTable.Column

    /// `WHERE env = ? AND record_type = ? AND <conditions>`: the records the update touches.
    private var scope: String {
        " WHERE \(C.env) = ? AND \(C.recordType) = ?" + conditions.map { " AND (\($0))" }.joined()
    }

    /// The UPDATE: the field, a new change tag (the step's tag and the row's id) and
    /// modification time, bound after the value's parameters; then the environment and type.
    package func updateSQL(env: Environment, changeTag: String, now: Int64) -> (sql: String, parameters: [SQLiteValue]) {
        ("UPDATE \(RecordsTable.name) SET \(C.fields) = json_set(\(C.fields), \(path), \(value)), \(C.changeTag) = ? || '-' || printf('%x', \(C.id)), \(C.modifiedAt) = ?" + scope,
         valueParameters + [.text(changeTag), .integer(now), .text(env.rawValue), .text(recordType)])
    }

    /// The count of the records the update would touch (a dry run).
    package func countSQL(env: Environment) -> (sql: String, parameters: [SQLiteValue]) {
        ("SELECT count(*) FROM \(RecordsTable.name)" + scope, [.text(env.rawValue), .text(recordType)])
    }
}

extension Store {
    /// Runs a data step's update; the number of records it changed.
    package func updateRecords(_ u: RecordsFieldUpdate, env: Environment, changeTag: String, now: Int64) throws -> Int {
        let (sql, parameters) = u.updateSQL(env: env, changeTag: changeTag, now: now)
        try db.run(sql, parameters)
        return db.changes
    }

    /// How many records a data step's update would change.
    package func countRecords(_ u: RecordsFieldUpdate, env: Environment) throws -> Int {
        let (sql, parameters) = u.countSQL(env: env)
        return Int(try db.scalar(sql, parameters)?.integer ?? 0)
    }
}
