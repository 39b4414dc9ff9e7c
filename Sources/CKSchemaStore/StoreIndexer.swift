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
        var create: [String]
    }

    /// Creates the indexes `schema` needs and drops those it no longer has.
    func sync(schema: Schema, env: Environment) throws {
        let q = Store.sqlLiteral
        let id = Store.sqlIdentifier
        let table = RecordsTable.name
        var wanted: [String: Wanted] = [:]
        func key(_ t: String, _ f: String, _ k: StoreIndex.Kind) -> String { "\(t)\u{1}\(f)\u{1}\(k.rawValue)" }
        for t in schema.recordTypes {
            try StoreName.check(t.name, "record type")
            // Literals, as a partial index's WHERE must be (CREATE INDEX takes no parameters).
            let scope = "\(C.env) = \(q(env.rawValue)) AND \(C.recordType) = \(q(t.name))"
            for (sf, kinds) in t.systemIndexes where kinds.contains(.queryable) || kinds.contains(.sortable) {
                let name = Self.indexName(env: env, recordType: t.name, field: sf.rawValue)
                wanted[key(t.name, sf.rawValue, .btree)] = Wanted(
                    index: StoreIndex(recordType: t.name, field: sf.rawValue, kind: .btree, sqlName: name),
                    create: ["CREATE INDEX \(id(name)) ON \(table) (\(Self.systemColumn(sf))) WHERE \(scope)"])
            }
            for f in t.fields where !f.isEncrypted {
                if f.indexes.contains(.queryable) || f.indexes.contains(.sortable) {
                    let name = Self.indexName(env: env, recordType: t.name, field: f.name)
                    // Lists and locations cannot be served by a B-tree on one value: catalogued only.
                    if f.type.isList || f.type.primitive == .location || f.type.primitive == .asset {
                        wanted[key(t.name, f.name, .none)] = Wanted(index: StoreIndex(recordType: t.name, field: f.name, kind: .none, sqlName: ""), create: [])
                    } else {
                        let expr = try Self.valueExpression(field: f.name, reference: f.type.primitive == .reference)
                        wanted[key(t.name, f.name, .btree)] = Wanted(
                            index: StoreIndex(recordType: t.name, field: f.name, kind: .btree, sqlName: name),
                            create: ["CREATE INDEX \(id(name)) ON \(table) (\(expr)) WHERE \(scope)"])
                    }
                }
                if f.indexes.contains(.searchable), f.type.primitive == .string {
                    let name = Self.ftsName(env: env, recordType: t.name, field: f.name)
                    guard db.hasFTS5 else {
                        wanted[key(t.name, f.name, .none)] = Wanted(index: StoreIndex(recordType: t.name, field: f.name, kind: .none, sqlName: ""), create: [])
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
                        create: [
                            "CREATE VIRTUAL TABLE \(id(name)) USING fts5(value)",
                            "INSERT INTO \(id(name)) (rowid, value) SELECT \(C.id), \(text(nil)) FROM \(table) WHERE \(scope)",
                            "CREATE TRIGGER \(id(name + ":insert")) AFTER INSERT ON \(table) WHEN \(newScope) BEGIN INSERT INTO \(id(name)) (rowid, value) VALUES (new.\(C.id), \(text("new"))); END",
                            "CREATE TRIGGER \(id(name + ":delete")) AFTER DELETE ON \(table) WHEN \(oldScope) BEGIN DELETE FROM \(id(name)) WHERE rowid = old.\(C.id); END",
                            "CREATE TRIGGER \(id(name + ":update")) AFTER UPDATE OF \(C.fields) ON \(table) WHEN \(newScope) BEGIN DELETE FROM \(id(name)) WHERE rowid = old.\(C.id); INSERT INTO \(id(name)) (rowid, value) VALUES (new.\(C.id), \(text("new"))); END",
                        ])
                }
            }
        }
        let existing = try db.rows("SELECT record_type, field, kind, sql_name FROM store_indexes WHERE env = ?", [.text(env.rawValue)])
        var have = Set<String>()
        for row in existing {
            let t = row[0].text ?? "", f = row[1].text ?? "", kind = StoreIndex.Kind(rawValue: row[2].text ?? "") ?? .none, name = row[3].text ?? ""
            let k = key(t, f, kind)
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
        for (k, w) in wanted.sorted(by: { $0.key < $1.key }) where !have.contains(k) {
            for sql in w.create { try db.execute(sql) }
            try db.run("INSERT INTO store_indexes VALUES (?, ?, ?, ?, ?)", [
                .text(env.rawValue), .text(w.index.recordType), .text(w.index.field), .text(w.index.kind.rawValue), .text(w.index.sqlName),
            ])
        }
    }
}
