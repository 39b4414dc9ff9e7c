import CKSchemaModel

/// The store's `records` table, declared once: its name, its columns, the row read back, and
/// (in `Store+Records.swift`) every statement of it that the layers above run. Neither runtime
/// nor migrations spell the table's SQL themselves (`RecordsTableTests` scans both: a data
/// step hands the store a `RecordsFieldUpdate`); the index DDL (`StoreIndexer`) and
/// the change-log triggers (`Store+RuntimeTables.swift`) read the names from here.
/// See `docs/store.md`, "Where the SQL lives".
package enum RecordsTable {
    /// The table's name in SQL.
    package static let name = "records"

    /// The table's columns, in their order in `CREATE TABLE`.
    package enum Column: String, CaseIterable, Sendable, CustomStringConvertible {
        case id, env, zone
        case recordType = "record_type", recordName = "record_name", changeTag = "change_tag"
        case createdAt = "created_at", modifiedAt = "modified_at", createdBy = "created_by", modifiedBy = "modified_by"
        case fields

        /// The column's name, so that `"\(Column.env) = ?"` reads as the SQL it makes.
        package var description: String { rawValue }

        /// The column that stores a system field (`createdAt` is `created_at`).
        package init(_ system: SystemField) {
            switch system {
            case .createdAt: self = .createdAt
            case .modifiedAt: self = .modifiedAt
            case .createdBy: self = .createdBy
            case .modifiedBy: self = .modifiedBy
            case .etag: self = .changeTag
            case .recordName: self = .recordName
            }
        }

        /// The column's definition in `CREATE TABLE`.
        var definition: String {
            switch self {
            case .id: "\(self) INTEGER PRIMARY KEY"
            case .env, .zone, .recordType, .recordName, .changeTag: "\(self) TEXT NOT NULL"
            case .createdAt, .modifiedAt: "\(self) INTEGER NOT NULL"
            case .createdBy, .modifiedBy: "\(self) TEXT"
            case .fields: "\(self) TEXT NOT NULL DEFAULT '{}'"
            }
        }
    }

    typealias C = Column

    /// The table and its index by type, as a new store creates them.
    static let createSQL = """
        CREATE TABLE \(name) (\(Column.allCases.map(\.definition).joined(separator: ", ")), UNIQUE (\(C.env), \(C.zone), \(C.recordName)));
        CREATE INDEX records_by_type ON \(name) (\(C.env), \(C.recordType));
        """

    /// The columns a whole record is read back with, in `RecordRows`' order.
    static let rowColumns: [Column] = [.id, .recordType, .recordName, .zone, .changeTag, .createdAt, .modifiedAt, .fields]

    /// `SELECT <the row's columns> FROM records`: every read of whole records starts with it
    /// (`StoreQuery` adds its `INDEXED BY`, `WHERE` and `ORDER BY`), and `RecordRows` decodes it.
    package static let selectRows = "SELECT " + rowColumns.map(\.rawValue).joined(separator: ", ") + " FROM " + name

    /// The columns a subscription's view of one record starts with: type, change tag, fields.
    package static let stateColumns: [Column] = [.recordType, .changeTag, .fields]

    /// The WHERE of one record by its key; the key's values are bound last, in this order.
    static let byKey = "\(C.env) = ? AND \(C.zone) = ? AND \(C.recordName) = ?"

    // The statements of one record, each cached on the connection (`SQLiteConnection.cached`).
    /// The largest id a record has had: the largest now, or the newest one deleted (the
    /// `records:high-water` trigger keeps it in `meta`), so ids never go backwards.
    static let highestID = "max(coalesce((SELECT max(\(C.id)) FROM \(name)), 0), coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '\(Store.highWaterKey)'), 0))"
    /// A new record is numbered above every id a record ever had (never reusing a deleted one's).
    static let insert = CachedSQL("INSERT INTO \(name) (\(C.id), \(C.env), \(C.zone), \(C.recordType), \(C.recordName), \(C.changeTag), \(C.createdAt), \(C.modifiedAt), \(C.fields)) VALUES (\(highestID) + 1, ?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) ON CONFLICT (\(C.env), \(C.zone), \(C.recordName)) DO NOTHING")
    /// `insertRows` rows at once, each with its id given (`Store.insertNewRecords`): ?1 the
    /// environment, ?2 the time, then per row its id, zone, type, name, change tag and fields.
    /// 100 rows: 602 values, under SQLite's oldest limit of 999 bound values; four statements
    /// for a batch of 400.
    static let insertRows = 100
    static let insertMany = CachedSQL(insertValues(rows: insertRows))
    /// Whether a record exists (`Store.existingRecordKeys`), by its key.
    static let existsByKey = CachedSQL("SELECT 1 FROM \(name) WHERE \(byKey)")
    static func insertValues(rows: Int) -> String {
        let values = (0..<rows).map { k in
            let b = 3 + 6 * k
            return "(?\(b), ?1, ?\(b + 1), ?\(b + 2), ?\(b + 3), ?\(b + 4), ?2, ?2, ?\(b + 5))"
        }
        return "INSERT INTO \(name) (\(C.id), \(C.env), \(C.zone), \(C.recordType), \(C.recordName), \(C.changeTag), \(C.createdAt), \(C.modifiedAt), \(C.fields)) VALUES "
            + values.joined(separator: ", ")
    }
    static let rowByKey = CachedSQL("SELECT \(rowColumns.dropLast().map(\.rawValue).joined(separator: ", ")) FROM \(name) WHERE \(byKey)")
    static let rowAndFieldsByKey = CachedSQL("\(selectRows) WHERE \(byKey)")
    static let replace = CachedSQL("UPDATE \(name) SET \(C.fields) = ?4, \(C.changeTag) = ?5, \(C.modifiedAt) = ?6 WHERE \(C.env) = ?1 AND \(C.zone) = ?2 AND \(C.recordName) = ?3")
    static let merge = CachedSQL("UPDATE \(name) SET \(C.fields) = json_patch(\(C.fields), ?4), \(C.changeTag) = ?5, \(C.modifiedAt) = ?6 WHERE \(C.env) = ?1 AND \(C.zone) = ?2 AND \(C.recordName) = ?3")
    static let delete = CachedSQL("DELETE FROM \(name) WHERE \(byKey)")
    static let fieldsByKey = CachedSQL("SELECT \(C.fields) FROM \(name) WHERE \(byKey)")
    static let count = CachedSQL("SELECT count(*) FROM \(name) WHERE \(C.env) = ?")
    static let countOfType = CachedSQL("SELECT count(*) FROM \(name) WHERE \(C.env) = ? AND \(C.recordType) = ?")
    static let maxID = CachedSQL("SELECT \(highestID)")
    static let zonesOfType = CachedSQL("SELECT \(C.zone), count(*) FROM \(name) WHERE \(C.env) = ? AND \(C.recordType) = ? GROUP BY \(C.zone) ORDER BY \(C.zone)")
    static let keysOfType = CachedSQL("SELECT \(C.zone), \(C.recordName) FROM \(name) WHERE \(C.env) = ? AND \(C.recordType) = ? ORDER BY \(C.id)")
}

/// The rows of a `RecordsTable.selectRows` statement, one record at a time: `next()` steps and
/// decodes the row; `withFields` gives the current row's fields JSON as bytes (no `String`).
package struct RecordRows {
    let statement: SQLiteStatement

    /// One record as read back, without its fields.
    package struct Row: Sendable {
        package var id: Int64
        package var recordType: String
        package var recordName: String
        package var zone: String
        package var changeTag: String
        /// Milliseconds since 1970.
        package var createdAt: Int64
        package var modifiedAt: Int64

        /// The memberwise initializer, for the layers above.
        package init(id: Int64, recordType: String, recordName: String, zone: String, changeTag: String, createdAt: Int64, modifiedAt: Int64) {
            self.id = id
            self.recordType = recordType
            self.recordName = recordName
            self.zone = zone
            self.changeTag = changeTag
            self.createdAt = createdAt
            self.modifiedAt = modifiedAt
        }
    }

    /// The next record, or nil when there are no more.
    package func next() throws(SQLiteError) -> Row? {
        guard try statement.step() else { return nil }
        return Self.row(statement)
    }

    /// The current row of a statement that selects `RecordsTable.rowColumns` (its fields last
    /// or not at all).
    static func row(_ s: SQLiteStatement) -> Row {
        Row(id: s.int64(at: 0), recordType: s.string(at: 1), recordName: s.string(at: 2), zone: s.string(at: 3),
            changeTag: s.string(at: 4), createdAt: s.int64(at: 5), modifiedAt: s.int64(at: 6))
    }

    /// The current record's fields JSON, as bytes.
    package func withFields<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try statement.withBytes(at: 7, body)
    }
}
