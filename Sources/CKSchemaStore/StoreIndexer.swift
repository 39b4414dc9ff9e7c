import CKSchemaModel

/// Keeps the store's SQLite indexes in step with a schema's indexes.
///
/// Choice (see `docs/store.md`): records keep their fields in one JSON column, and a queryable
/// or sortable field becomes a *partial expression index* on `json_extract(fields, '$.name')`
/// restricted to its environment and record type. Adding or removing an index is then a plain
/// `CREATE INDEX` / `DROP INDEX`: no table is rebuilt, and no column is added per field (a
/// per-type table would need `ALTER TABLE` and a copy on every new field; generated columns
/// cannot be dropped while indexed). A searchable field gets an FTS5 table kept current by triggers.
package struct StoreIndexer {
    let db: SQLiteConnection

    /// The SQL expression of a custom field's value in the `fields` JSON column. The name is
    /// checked against CloudKit's grammar before it is quoted into the path (`StoreName`).
    package static func valueExpression(field: String, reference: Bool, row: String? = nil) throws(StoreName.Unsafe) -> String {
        let col = row.map { "\($0).\(C.fields)" } ?? C.fields.rawValue
        return "json_extract(\(col), \(try StoreName.jsonPath(field, then: reference ? "recordName" : nil)))"
    }

    /// The `records` column of a system field.
    package static func systemColumn(_ f: SystemField) -> String { RecordsTable.Column(f).rawValue }

    private typealias C = RecordsTable.Column

    static func indexName(env: Environment, recordType: String, field: String) -> String { "ix:\(env.rawValue):\(recordType):\(field)" }
    static func ftsName(env: Environment, recordType: String, field: String) -> String { "fts:\(env.rawValue):\(recordType):\(field)" }

    private struct Wanted {
        var index: StoreIndex
        /// The SQLite objects' names (to tell whether they exist) and their DDL.
        var objects: [String]
        var create: [String]
        /// Fills a new FTS table from the records already stored (nil for a B-tree index).
        var fill: String?
    }

    private static func key(_ t: String, _ f: String, _ k: StoreIndex.Kind) -> String { "\(t)\u{1}\(f)\u{1}\(k.rawValue)" }

    /// The indexes one record type asks for in `env`, with their DDL (`IF NOT EXISTS` when
    /// `ifMissing`). Checks every name against CloudKit's grammar before it is quoted.
    private func wanted(_ t: RecordType, env: Environment, ifMissing: Bool = false) throws -> [String: Wanted] {
        let q = Store.sqlLiteral
        let id = Store.sqlIdentifier
        let table = RecordsTable.name
        let guardClause = ifMissing ? "IF NOT EXISTS " : ""
        var wanted: [String: Wanted] = [:]
        let key = Self.key
        try StoreName.check(t.name, "record type")
        // Literals, as a partial index's WHERE must be (CREATE INDEX takes no parameters).
        let scope = "\(C.env) = \(q(env.rawValue)) AND \(C.recordType) = \(q(t.name))"
        for (sf, kinds) in t.systemIndexes where kinds.contains(.queryable) || kinds.contains(.sortable) {
            let name = Self.indexName(env: env, recordType: t.name, field: sf.rawValue)
            wanted[key(t.name, sf.rawValue, .btree)] = Wanted(
                index: StoreIndex(recordType: t.name, field: sf.rawValue, kind: .btree, sqlName: name), objects: [name],
                create: ["CREATE INDEX \(guardClause)\(id(name)) ON \(table) (\(Self.systemColumn(sf))) WHERE \(scope)"])
        }
        for f in t.fields where !f.isEncrypted {
            if f.indexes.contains(.queryable) || f.indexes.contains(.sortable) {
                let name = Self.indexName(env: env, recordType: t.name, field: f.name)
                // Lists and locations cannot be served by a B-tree on one value: catalogued only.
                if f.type.isList || f.type.primitive == .location || f.type.primitive == .asset {
                    wanted[key(t.name, f.name, .none)] = Wanted(index: StoreIndex(recordType: t.name, field: f.name, kind: .none, sqlName: ""), objects: [], create: [])
                } else {
                    let expr = try Self.valueExpression(field: f.name, reference: f.type.primitive == .reference)
                    wanted[key(t.name, f.name, .btree)] = Wanted(
                        index: StoreIndex(recordType: t.name, field: f.name, kind: .btree, sqlName: name), objects: [name],
                        create: ["CREATE INDEX \(guardClause)\(id(name)) ON \(table) (\(expr)) WHERE \(scope)"])
                }
            }
            if f.indexes.contains(.searchable), f.type.primitive == .string {
                let name = Self.ftsName(env: env, recordType: t.name, field: f.name)
                guard db.hasFTS5 else {
                    wanted[key(t.name, f.name, .none)] = Wanted(index: StoreIndex(recordType: t.name, field: f.name, kind: .none, sqlName: ""), objects: [], create: [])
                    continue
                }
                let path = try StoreName.jsonPath(f.name)
                func text(_ row: String?) -> String {
                    let col = row.map { "\($0).\(C.fields)" } ?? C.fields.rawValue
                    return f.type.isList
                        ? "(SELECT group_concat(value, ' ') FROM json_each(\(col), \(path)))"
                        : "json_extract(\(col), \(path))"
                }
                let newScope = "new.\(C.env) = \(q(env.rawValue)) AND new.\(C.recordType) = \(q(t.name))"
                let oldScope = "old.\(C.env) = \(q(env.rawValue)) AND old.\(C.recordType) = \(q(t.name))"
                wanted[key(t.name, f.name, .fts)] = Wanted(
                    index: StoreIndex(recordType: t.name, field: f.name, kind: .fts, sqlName: name),
                    objects: [name, name + ":insert", name + ":delete", name + ":update"],
                    create: [
                        "CREATE VIRTUAL TABLE \(guardClause)\(id(name)) USING fts5(value)",
                        "CREATE TRIGGER \(guardClause)\(id(name + ":insert")) AFTER INSERT ON \(table) WHEN \(newScope) BEGIN INSERT INTO \(id(name)) (rowid, value) VALUES (new.\(C.id), \(text("new"))); END",
                        "CREATE TRIGGER \(guardClause)\(id(name + ":delete")) AFTER DELETE ON \(table) WHEN \(oldScope) BEGIN DELETE FROM \(id(name)) WHERE rowid = old.\(C.id); END",
                        "CREATE TRIGGER \(guardClause)\(id(name + ":update")) AFTER UPDATE OF \(C.fields) ON \(table) WHEN \(newScope) BEGIN DELETE FROM \(id(name)) WHERE rowid = old.\(C.id); INSERT INTO \(id(name)) (rowid, value) VALUES (new.\(C.id), \(text("new"))); END",
                    ],
                    fill: "INSERT INTO \(id(name)) (rowid, value) SELECT \(C.id), \(text(nil)) FROM \(table) WHERE \(scope)")
            }
        }
        return wanted
    }

    /// Creates the indexes `schema` needs and drops those it no longer has.
    ///
    /// Every index is catalogued in `store_indexes` at once, but its SQLite objects (the
    /// B-tree index, the FTS5 table and its triggers) are created only for a record type that
    /// holds records in `env`; a type without records gets them from `materialize` when its
    /// first record is saved (`RecordImporter`) or a subscription reads its FTS tables
    /// (`NotificationRecorder`). Why: every DDL statement makes SQLite read `sqlite_schema`
    /// back (`OP_ParseSchema`, a scan no index serves), so creating every type's objects up
    /// front cost the square of their number: `init --from-production` of 8,000 types took
    /// 181 s (issue 35 point 9, Benchmarks/RESULTS.md). A query of a type without records
    /// answers nothing without reading SQLite (`StoreQuery.run`), as it did with the index.
    func sync(schema: Schema, env: Environment) throws {
        let id = Store.sqlIdentifier
        var wanted: [String: Wanted] = [:]
        for t in schema.recordTypes { wanted.merge(try self.wanted(t, env: env)) { a, _ in a } }
        let existing = try db.rows("SELECT record_type, field, kind, sql_name FROM store_indexes WHERE env = ?", [.text(env.rawValue)])
        var have = Set<String>()
        for row in existing {
            let t = row[0].text ?? "", f = row[1].text ?? "", kind = StoreIndex.Kind(rawValue: row[2].text ?? "") ?? .none, name = row[3].text ?? ""
            let k = Self.key(t, f, kind)
            if wanted[k] != nil { have.insert(k); continue }
            switch kind {
            case .btree: try db.execute("DROP INDEX IF EXISTS \(id(name))")
            case .fts:
                for suffix in [":insert", ":delete", ":update"] { try db.execute("DROP TRIGGER IF EXISTS \(id(name + suffix))") }
                try db.execute("DROP TABLE IF EXISTS \(id(name))")
            case .none: break
            }
            try db.run("DELETE FROM store_indexes WHERE env = ? AND record_type = ? AND field = ? AND kind = ?",
                       [.text(env.rawValue), .text(t), .text(f), .text(kind.rawValue)])
        }
        // The types that hold records get every object they lack (a new index, or one a type
        // catalogued while it had no records); one read of the schema's names, not one per object.
        // (One indexed lookup per type, not a read of every record: `records_by_type`.)
        let holding = try Set(wanted.values.map(\.index.recordType)).filter { try holdsRecords(env: env, recordType: $0) }
        let objects: Set<String> = holding.isEmpty ? [] : Set(try db.rows("SELECT name FROM sqlite_master").compactMap { $0.first?.text })
        for (k, w) in wanted.sorted(by: { $0.key < $1.key }) {
            if holding.contains(w.index.recordType), !w.objects.allSatisfy(objects.contains) {
                // Dropped first: a half-present set (never written by ckschema) is rebuilt whole.
                if w.index.kind == .fts {
                    for suffix in [":insert", ":delete", ":update"] { try db.execute("DROP TRIGGER IF EXISTS \(id(w.index.sqlName + suffix))") }
                    try db.execute("DROP TABLE IF EXISTS \(id(w.index.sqlName))")
                }
                for sql in w.create { try db.execute(sql) }
                if let fill = w.fill { try db.execute(fill) }
            }
            guard !have.contains(k) else { continue }
            try db.run("INSERT INTO store_indexes VALUES (?, ?, ?, ?, ?)", [
                .text(env.rawValue), .text(w.index.recordType), .text(w.index.field), .text(w.index.kind.rawValue), .text(w.index.sqlName),
            ])
        }
    }

    /// Creates the SQLite objects of `type`'s catalogued indexes in `env` that do not exist
    /// yet, when the type holds no records there (one that does has them all, `sync`). Runs
    /// inside the caller's transaction: a write that fails takes them back with it.
    func materialize(_ type: RecordType, env: Environment) throws {
        guard try !holdsRecords(env: env, recordType: type.name) else { return }
        let catalogued = Set(try db.rows("SELECT field, kind FROM store_indexes WHERE env = ? AND record_type = ?", [.text(env.rawValue), .text(type.name)])
            .map { Self.key(type.name, $0[0].text ?? "", StoreIndex.Kind(rawValue: $0[1].text ?? "") ?? .none) })
        guard !catalogued.isEmpty else { return }
        // No fill: the type has no records for the FTS table to hold.
        for (k, w) in try wanted(type, env: env, ifMissing: true).sorted(by: { $0.key < $1.key }) where catalogued.contains(k) {
            for sql in w.create { try db.execute(sql) }
        }
    }

    /// Whether `env` holds a record of `recordType`.
    func holdsRecords(env: Environment, recordType: String) throws -> Bool {
        try db.scalar("SELECT EXISTS (SELECT 1 FROM \(RecordsTable.name) WHERE \(C.env) = ? AND \(C.recordType) = ?)",
                      [.text(env.rawValue), .text(recordType)])?.integer ?? 0 != 0
    }
}
