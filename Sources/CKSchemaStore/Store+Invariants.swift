import CKSchemaDiagnostics

/// What every store holds, checked in one place when any command opens the store
/// (`Store.init`), so a damaged store is refused by every command alike: `migrate status`
/// and `records import` used to disagree on a store whose `migrations` table was gone (one
/// said CK506, the other imported; issue 35 point 12). A missing table, column, trigger or
/// environment row is CK501 naming it; nothing is repaired or written.
extension Store {
    /// Each table of a store and the columns it must have (`createTables`, `RecordsTable`).
    static let requiredTables: [(table: String, columns: [String])] = [
        ("meta", ["key", "value"]),
        ("environments", ["name", "schema_yaml", "schema_hash", "schema_json", "updated_at"]),
        ("zones", ["env", "name", "database", "capabilities"]),
        (RecordsTable.name, RecordsTable.Column.allCases.map(\.rawValue)),
        ("migrations", ["env", "version", "name", "checksum", "applied_at", "duration_ms", "ckschema_version"]),
        ("store_indexes", ["env", "record_type", "field", "kind", "sql_name"]),
        ("lock", ["id", "pid", "pid_start", "host", "command", "acquired_at", "token"]),
    ]

    /// The run-time tables and triggers (`ensureRuntimeTables`): absent together in a store
    /// written before them (they are created on first write), else all present.
    static let runtimeTables: [(table: String, columns: [String])] = [
        ("record_changes", ["seq", "record_id", "env", "zone", "record_name", "deleted"]),
        ("notifications", ["seq", "env", "body"]),
    ]
    static let runtimeTriggers = ["changes:update", "changes:delete"]

    /// What is missing from the store, in words ("the table 'migrations' is missing"); empty
    /// for a whole store. Reads the schema catalogue only (fixed SQL, no name spliced in).
    package func damage() throws -> [String] {
        var columns: [String: Set<String>] = [:]
        // Only the tables checked (bound, not spliced): a store of 8,000 types holds thousands
        // of FTS5 tables and their shadow tables, and this runs at every open.
        let checked = (Self.requiredTables + Self.runtimeTables).map(\.table)
        let marks = Array(repeating: "?", count: checked.count).joined(separator: ", ")
        for row in try db.rows("SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table' AND m.name IN (\(marks))",
                               checked.map { .text($0) }) {
            guard row.count == 2, let table = row[0].text, let column = row[1].text else { continue }
            columns[table, default: []].insert(column)
        }
        var triggers: Set<String> = []
        for row in try db.rows("SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            if let name = row.first?.text { triggers.insert(name) }
        }
        var out: [String] = []
        func check(_ tables: [(table: String, columns: [String])]) {
            for (table, wanted) in tables {
                guard let have = columns[table] else { out.append("the table '\(table)' is missing"); continue }
                for c in wanted where !have.contains(c) { out.append("the table '\(table)' has no column '\(c)'") }
            }
        }
        check(Self.requiredTables)
        let runtime = Self.runtimeTables.map(\.table).filter { columns[$0] != nil }
        if !runtime.isEmpty {
            check(Self.runtimeTables)
            for t in Self.runtimeTriggers where !triggers.contains(t) { out.append("the trigger '\(t)' is missing") }
        }
        if out.isEmpty {
            let envs = Set(try db.rows("SELECT name FROM environments").compactMap { $0.first?.text })
            for env in ["development", "production"] where !envs.contains(env) { out.append("the environment '\(env)' has no row in 'environments'") }
        }
        return out
    }

    /// Throws CK501 naming what a damaged store lacks.
    func checkInvariants() throws(InputError) {
        let missing: [String]
        do { missing = try damage() } catch { throw Self.wrap(error, path: path, doing: "check the store") }
        guard !missing.isEmpty else { return }
        throw InputError(Diagnostic(rule: StoreRules.notAStore, "the store '\(path)' is damaged: \(missing.joined(separator: "; ")); no command reads or writes it",
                                    at: nil, fix: "restore the store from a backup, or move it away and rebuild it ('ckschema migrate apply', then 'ckschema records import')"))
    }
}
