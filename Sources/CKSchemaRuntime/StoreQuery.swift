import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaStore

/// A query as `CKQuery` + `CKQueryOperation` state it: a record type, a predicate, sort
/// descriptors, a zone, a results limit.
public struct RecordQuery: Sendable, Hashable {
    /// One sort descriptor (`--sort mood:desc`).
    public struct Sort: Sendable, Hashable {
        public var field: String
        public var descending: Bool
        public init(field: String, descending: Bool = false) { self.field = field; self.descending = descending }
    }

    public var recordType: String
    /// NSPredicate format text; nil is TRUEPREDICATE.
    public var predicate: String?
    public var arguments: [QueryPredicateArgument]
    public var sort: [Sort]
    /// The zone; nil is the zone the schema gives the record type.
    public var zone: String?
    public var environment: Environment
    public var limit: Int?

    public init(recordType: String, predicate: String? = nil, arguments: [QueryPredicateArgument] = [], sort: [Sort] = [],
                zone: String? = nil, environment: Environment = .development, limit: Int? = nil) {
        self.recordType = recordType
        self.predicate = predicate
        self.arguments = arguments
        self.sort = sort
        self.zone = zone
        self.environment = environment
        self.limit = limit
    }
}

/// A query compiled to SQL over the store's `records` table: values bound, never spliced;
/// the environment and record type written as literals so that SQLite can use the partial
/// expression indexes the schema's indexes became (see `docs/store.md`).
public struct CompiledQuery: Sendable {
    /// The SELECT, with `?` for every value.
    public var sql: String
    /// The same SELECT without its `INDEXED BY` clause, for when SQLite cannot use that index.
    var fallbackSQL: String?
    var bindings: [SQLiteValue]
    /// Distance comparisons, checked on each candidate row (SQLite has no trigonometry in every build).
    var distances: [(field: String, latitude: Double, longitude: Double, meters: Double, within: Bool)]
    /// The results limit applied after the distance filters (nil: none).
    var limit: Int?
    /// The zone the query runs in.
    public var zone: String
}

/// CloudKit's refusal of a query: the diagnostics, with CloudKit's words.
public struct QueryRefusal: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

/// How `query`, `changes` and `notifications` print a record or a notification.
public enum RecordLineFormat: String, Sendable, CaseIterable {
    /// One JSON object a line (the Web Services shape).
    case ndjson
    /// One line a record for people: `Note n1 (Notes) title="Hi" mood=4`; strings JSON-quoted,
    /// so control characters are escaped.
    case text

    func line(_ record: JSONValue) -> String {
        switch self {
        case .ndjson: return record.text + "\n"
        case .text:
            // Names JSON-escaped without their quotes: a control character never reaches a terminal raw.
            func bare(_ s: String?) -> String { String(JSONValue.string(s ?? "").text.dropFirst().dropLast()) }
            var out = bare(record["recordType"]?.stringValue) + " " + bare(record["recordName"]?.stringValue)
            if let z = record["zoneID"]?["zoneName"]?.stringValue { out += " (" + bare(z) + ")" }
            for (k, v) in record["fields"]?.objectValue ?? [] {
                out += " " + bare(k) + "=" + (v["value"].map(\.text) ?? "<encrypted>")
            }
            return out + "\n"
        }
    }
}

/// Runs queries over the store and refuses them where CloudKit refuses them.
public enum StoreQuery {
    /// Where a predicate given on the command line is located in messages.
    public static let predicateFile = "<predicate>"

    /// The compiled query, or CloudKit's refusals as diagnostics (never both).
    ///
    /// `btreeIndexes` (field -> SQLite index) lets the query name the index of its most selective
    /// term: without statistics SQLite prefers `records_by_type`'s two equalities to a range on
    /// the field's index, which reads every record of the type.
    public static func compile(_ q: RecordQuery, schema: Schema, searchTables: [String: String],
                               btreeIndexes: [String: String] = [:]) -> Result<CompiledQuery, QueryRefusal> {
        guard let type = schema.recordType(named: q.recordType) else {
            if schema.recordTypes.isEmpty {
                // An empty list of record types would read as "there are none"; say why.
                let deploy = q.environment == .production
                    ? "run `ckschema migrate apply --env production` (or `ckschema promote --apply PLAN`) to give the store's production a schema"
                    : "run `ckschema migrate apply` to give the store's development a schema"
                return .failure(QueryRefusal([Diagnostic(rule: RuntimeRules.unknownType,
                    "Did not find record type: \(ControlCharacters.escaped(q.recordType)); the store's \(q.environment.rawValue) schema has no record types: no migration was applied to \(q.environment.rawValue)",
                    at: nil, fix: deploy)]))
            }
            return .failure(QueryRefusal([Diagnostic(rule: RuntimeRules.unknownType, "Did not find record type: \(ControlCharacters.escaped(q.recordType))", at: nil,
                                    fix: "the \(q.environment.rawValue) schema's record types: " + schema.recordTypes.map(\.name).joined(separator: ", "))]))
        }
        let zone = q.zone ?? type.zone ?? Zone.defaultZoneName
        if zone != Zone.defaultZoneName, schema.zone(named: zone) == nil {
            return .failure(QueryRefusal([Diagnostic(rule: RuntimeRules.zoneNotFound, "Zone '\(ControlCharacters.escaped(zone))' does not exist in the \(q.environment.rawValue) environment", at: nil,
                                    fix: "zones: " + ([Zone.defaultZoneName] + schema.zones.map(\.name)).joined(separator: ", "))]))
        }
        let start = SourceLocation(file: predicateFile, line: 1, column: 1)
        let predicate: QueryPredicate
        do { predicate = try PredicateParser.parse(q.predicate ?? "TRUEPREDICATE", arguments: q.arguments) } catch {
            return .failure(QueryRefusal([error.diagnostic(at: start)]))
        }
        var refusals = PredicateChecker.check(predicate, on: type).map { $0.diagnostic(at: start) }
        // A name outside CloudKit's grammar never becomes a JSON path (a `%K` argument, a name a
        // store kept from an older schema): refused rather than silently matching nothing.
        for c in predicate.comparisons {
            if case .field(let name) = c.key, type.field(named: name) != nil, !CloudKitRules.isValidName(name) {
                refusals.append(QueryPredicateError(PredicateRules.unknownField, column: c.keyColumn,
                                               "field \(JSONValue.string(name).text) is not a CloudKit field name, so it cannot be queried").diagnostic(at: start))
            }
        }
        if predicate.matchesAll, !type.indexes(on: .recordName).contains(.queryable) {
            refusals.append(Diagnostic(rule: PredicateRules.needsIndex, "Field 'recordName' is not marked queryable", at: nil,
                                   fix: "a query without a filter needs 'system: { recordName: [queryable] }' on \(type.name)"))
        }
        var order: [String] = []
        for s in q.sort {
            let key: QueryPredicateKey
            do { key = try PredicateParser.key(s.field, column: 1) } catch {
                refusals.append(Diagnostic(rule: RuntimeRules.notSortable, "cannot sort on '\(ControlCharacters.escaped(s.field))'", at: nil))
                continue
            }
            guard let r = PredicateChecker.resolve(key, in: type), case let expr? = expression(key, r.type) else {
                refusals.append(Diagnostic(rule: PredicateRules.unknownField, "'\(type.name)' has no field '\(ControlCharacters.escaped(s.field))' to sort on"
                                       + Suggest.phrase(for: s.field, in: type.fields.map(\.name)), at: nil))
                continue
            }
            guard r.indexes.contains(.sortable) else {
                refusals.append(Diagnostic(rule: RuntimeRules.notSortable, "Field '\(key.schemaName ?? s.field)' is not marked sortable", at: nil,
                                       fix: r.isEncrypted ? "an encrypted field cannot be sorted on" : "add 'sortable' to the indexes of \(type.name).\(r.place)"))
                continue
            }
            order.append(expr + (s.descending ? " DESC" : ""))
            // Strings equal up to a NUL are ordered by the rest (json_extract stops at NUL).
            if let exact = exactText(key, r.type) { order.append(exact + (s.descending ? " DESC" : "")) }
        }
        if !refusals.isEmpty { return .failure(QueryRefusal(refusals)) }

        var b = Builder(type: type, env: q.environment, searchTables: searchTables)
        let chosen = chooseIndex(predicate, sort: q.sort, btreeIndexes: btreeIndexes)
        // The environment and type are literals here, unlike `Store.equalityQuery`'s bound values:
        // SQLite checks `INDEXED BY` when the statement is prepared, before any value is bound,
        // and a partial index is usable then only if the WHERE repeats its terms as written. The
        // type name was checked against CloudKit's grammar when the schema entered the store;
        // `sqlLiteral` doubles any quote. Every other value is bound.
        typealias C = RecordsTable.Column
        var sql = RecordsTable.selectRows
            + (chosen.map { " INDEXED BY " + Store.sqlIdentifier($0) } ?? "") + " WHERE \(C.env) = "
            + Store.sqlLiteral(q.environment.rawValue) + " AND \(C.recordType) = " + Store.sqlLiteral(type.name) + " AND +\(C.zone) = ?"
        b.bindings.append(.text(zone))
        let condition = b.condition(predicate.root)
        if condition != "1" { sql += " AND " + condition }
        sql += " ORDER BY " + (order + ["id"]).joined(separator: ", ")
        if let limit = q.limit, b.distances.isEmpty {
            sql += " LIMIT ?"
            b.bindings.append(.integer(Int64(limit)))
        }
        let fallback = chosen.map { sql.replacingOccurrences(of: " INDEXED BY " + Store.sqlIdentifier($0), with: "") }
        return .success(CompiledQuery(sql: sql, fallbackSQL: fallback, bindings: b.bindings, distances: b.distances, limit: b.distances.isEmpty ? nil : q.limit, zone: zone))
    }

    /// The index of the predicate's best top-level term (an equality or IN before a range), else
    /// of the first sort field when the predicate matches all records.
    static func chooseIndex(_ p: QueryPredicate, sort: [RecordQuery.Sort], btreeIndexes: [String: String]) -> String? {
        let top: [QueryPredicateNode] = if case .and(let parts) = p.root { parts } else { [p.root] }
        var ranked: [(Int, String)] = []
        for node in top {
            guard case .comparison(let c) = node, let name = c.key.schemaName, let index = btreeIndexes[name] else { continue }
            switch c.op {
            case .equal, .in: ranked.append((0, index))
            case .between, .beginsWith, .less, .lessOrEqual, .greater, .greaterOrEqual: ranked.append((1, index))
            default: continue
            }
        }
        if let best = ranked.min(by: { $0.0 < $1.0 }) { return best.1 }
        if p.matchesAll, let first = sort.first, let key = try? PredicateParser.key(first.field, column: 1), let name = key.schemaName {
            return btreeIndexes[name]
        }
        return nil
    }

    /// The SQL expression of a key's value; nil for a field whose name is not CloudKit's
    /// grammar (it is never spliced into a JSON path).
    static func expression(_ key: QueryPredicateKey, _ type: FieldType) -> String? {
        switch key {
        case .tokens: return nil
        case .system(let s, _): return StoreIndexer.systemColumn(s)
        case .field(let name):
            // StoreName checks the name against CloudKit's grammar where it becomes SQL text.
            return try? StoreIndexer.valueExpression(field: name, reference: type.primitive == .reference && !type.isList)
        }
    }

    /// A string field's whole stored value, NUL bytes included: the indexed expression where
    /// the stored JSON holds no NUL, else `ckschema_text` over the field's JSON text. Nil for
    /// anything but a plain string field (system columns are exact already).
    static func exactText(_ key: QueryPredicateKey, _ type: FieldType) -> String? {
        guard case .field(let name) = key, type.primitive == .string, !type.isList,
              let expr = expression(key, type), let path = try? StoreName.jsonPath(name) else { return nil }
        let json = "fields -> \(path)"
        return "(CASE WHEN instr(\(json), '\\u0000') = 0 THEN \(expr) ELSE \(SQLiteConnection.exactTextFunction)(\(json)) END)"
    }

    /// The outcome of `run`.
    public enum Outcome: Sendable {
        /// How many records were written.
        case records(Int)
        /// CloudKit would refuse the query; nothing was written.
        case refused([Diagnostic])
    }

    /// Runs `q` against the store and writes the matching records as NDJSON in the Web
    /// Services shape, encrypted values left out, to `sink`.
    public static func run(_ q: RecordQuery, store: Store, format: RecordLineFormat = .ndjson, sink: (String) throws -> Void) throws(InputError) -> Outcome {
        let schema = try store.schema(q.environment)
        let compiled: CompiledQuery
        let indexes = try store.indexes(q.environment).filter { $0.recordType == q.recordType }
        let search = Dictionary(indexes.filter { $0.kind == .fts }.map { ($0.field, $0.sqlName) }, uniquingKeysWith: { a, _ in a })
        let btree = Dictionary(indexes.filter { $0.kind == .btree }.map { ($0.field, $0.sqlName) }, uniquingKeysWith: { a, _ in a })
        switch compile(q, schema: schema, searchTables: search, btreeIndexes: btree) {
        case .failure(let r): return .refused(r.diagnostics)
        case .success(let c): compiled = c
        }
        // A type that holds no records may not have its SQLite indexes yet (`StoreIndexer.sync`
        // creates them with its first record): it answers nothing, refusals checked above.
        guard try store.holdsRecords(env: q.environment, recordType: q.recordType) else { return .records(0) }
        let fields = Dictionary((schema.recordType(named: q.recordType)?.fields ?? []).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        return try store.guarded("run a query") {
            let rows: RecordRows
            do { rows = try store.queryRows(compiled.sql, compiled.bindings) } catch let error as SQLiteError {
                // SQLite found no plan with the named index ("no query solution"): let it choose.
                guard let fallback = compiled.fallbackSQL else { throw error }
                rows = try store.queryRows(fallback, compiled.bindings)
            }
            var n = 0
            while let row = try rows.next() {
                if let limit = compiled.limit, n >= limit { break }
                let stored = try rows.withFields { try JSONValue.parse($0) }
                if !compiled.distances.allSatisfy({ d in matches(d, stored) }) { continue }
                let record = RecordExporter.webServicesRecord(row, stored: stored, fields: fields, redactEncrypted: true)
                try sink(format.line(record))
                n += 1
            }
            return .records(n)
        }
    }

    /// When a query found nothing: a note (CK723) saying in which other zones the store holds
    /// records of its type, or nil when it holds none elsewhere. A query runs in one zone
    /// (CKQueryOperation.zoneID), so records saved in another are not wrong results but lost ones.
    public static func otherZones(_ q: RecordQuery, store: Store) throws(InputError) -> Diagnostic? {
        let schema = try store.schema(q.environment)
        guard let type = schema.recordType(named: q.recordType) else { return nil }
        let queried = q.zone ?? type.zone ?? Zone.defaultZoneName
        let counts = try store.guarded("count the records of each zone") { try store.recordCountsByZone(env: q.environment, recordType: type.name) }
        let elsewhere = counts.filter { $0.zone != queried && $0.count > 0 }
        guard !elsewhere.isEmpty else { return nil }
        func named(_ zone: String) -> String { zone == Zone.defaultZoneName ? "the default zone" : "zone '\(ControlCharacters.escaped(zone))'" }
        let held = elsewhere.map { "\($0.count) in \(named($0.zone))" }.joined(separator: ", ")
        let name = ControlCharacters.escaped(type.name)
        let option = elsewhere[0].zone == Zone.defaultZoneName ? Zone.defaultZoneName : ControlCharacters.escaped(elsewhere[0].zone)
        let home = type.zone ?? Zone.defaultZoneName
        let fix = elsewhere.count == 1 && elsewhere[0].zone != home
            ? "query that zone with --zone \(option); the schema puts '\(name)' in \(named(home)), so the records saved elsewhere are not where the app looks: import them again in \(named(home))"
            : "query that zone with --zone \(option)"
        return Diagnostic(rule: RuntimeRules.otherZone, "no '\(name)' record in \(named(queried)), but the store holds \(held): a query searches one zone", at: nil, fix: fix)
    }

    /// The great-circle distance (haversine, mean Earth radius) between two points, in meters.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }

    private static func matches(_ d: (field: String, latitude: Double, longitude: Double, meters: Double, within: Bool), _ stored: JSONValue) -> Bool {
        guard let loc = stored[d.field], let lat = loc["latitude"]?.doubleValue, let lon = loc["longitude"]?.doubleValue else { return false }
        let m = distance(d.latitude, d.longitude, lat, lon)
        return d.within ? m < d.meters : m > d.meters
    }

    /// A predicate of `type` as an SQL condition over the `records` row in scope, with its bound
    /// values in order and the distance tests SQL leaves to the caller. Nil when CloudKit would
    /// refuse the predicate (the lint rules and `query` say why).
    static func condition(_ predicate: QueryPredicate, type: RecordType, env: Environment, searchTables: [String: String])
        -> (sql: String, bindings: [SQLiteValue], distances: [(field: String, latitude: Double, longitude: Double, meters: Double, within: Bool)])? {
        guard PredicateChecker.check(predicate, on: type, needIndexes: false).isEmpty else { return nil }
        var b = Builder(type: type, env: env, searchTables: searchTables)
        let sql = b.condition(predicate.root)
        return (sql, b.bindings, b.distances)
    }

    static func matchesDistances(_ distances: [(field: String, latitude: Double, longitude: Double, meters: Double, within: Bool)], _ stored: JSONValue) -> Bool {
        distances.allSatisfy { matches($0, stored) }
    }

    /// Writes a predicate's tree as SQL, collecting the bound values in order.
    private struct Builder {
        let type: RecordType
        let env: Environment
        let searchTables: [String: String]
        var bindings: [SQLiteValue] = []
        var distances: [(field: String, latitude: Double, longitude: Double, meters: Double, within: Bool)] = []

        mutating func condition(_ n: QueryPredicateNode) -> String {
            switch n {
            case .all: return "1"
            case .and(let parts): return "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
            case .not(let inner, _): return "NOT (" + condition(inner) + ")"
            case .comparison(let c): return comparison(c)
            }
        }

        mutating func bind(_ v: QueryPredicateValue) -> String {
            switch v {
            case .string(let s): bindings.append(.text(s))
            case .int(let i): bindings.append(.integer(i))
            case .double(let d): bindings.append(.real(d))
            case .date(let ms): bindings.append(.integer(ms))
            case .location, .list, .distance: bindings.append(.null)
            }
            return "?"
        }

        mutating func comparison(_ c: QueryPredicateComparison) -> String {
            if c.op == .tokenMatch { return tokens(c.value) }
            // The checker has resolved every key and refused names outside CloudKit's grammar.
            guard let r = PredicateChecker.resolve(c.key, in: type), let expr = StoreQuery.expression(c.key, r.type) else { return "0" }
            switch c.op {
            case .equal, .notEqual:
                if case .string(let text) = c.value, case .field(let name) = c.key, r.type.primitive == .string, !r.type.isList,
                   let path = try? StoreName.jsonPath(name) {
                    let equal = exactStringEquality(expr, json: "fields -> \(path)", text)
                    return c.op == .equal ? equal : "NOT " + equal
                }
                return "\(expr) " + (c.op == .equal ? "=" : "!=") + " " + bind(c.value)
            case .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in:
                if let exact = StoreQuery.exactText(c.key, r.type), let sql = exactStringOrder(c.op, expr, exact: exact, c.value) {
                    return sql
                }
                switch c.op {
                case .less: return "\(expr) < " + bind(c.value)
                case .lessOrEqual: return "\(expr) <= " + bind(c.value)
                case .greater: return "\(expr) > " + bind(c.value)
                case .greaterOrEqual: return "\(expr) >= " + bind(c.value)
                case .between:
                    guard case .list(let bounds) = c.value, bounds.count == 2 else { return "0" }
                    return "\(expr) BETWEEN " + bind(bounds[0]) + " AND " + bind(bounds[1])
                default:
                    guard case .list(let items) = c.value, !items.isEmpty else { return "0" }
                    return "\(expr) IN (" + items.map { bind($0) }.joined(separator: ", ") + ")"
                }
            case .beginsWith:
                guard case .string(let prefix) = c.value else { return "0" }
                // A range the B-tree index serves, then the exact prefix test. The range ends
                // at the first string after every string with the prefix (UTF-8 order is
                // scalar order); prefix + U+10FFFF missed "buy\u{10FFFF}more". The range is
                // on the prefix up to its first NUL, which is what json_extract reads of a
                // matching value; the exact test compares bytes of the whole stored string.
                let cut = Self.cutAtNUL(prefix)
                bindings.append(.text(cut))
                var range = "\(expr) >= ?"
                if let end = Self.successor(ofPrefix: cut) {
                    bindings.append(.text(end))
                    range += " AND \(expr) < ?"
                }
                guard let exact = StoreQuery.exactText(c.key, r.type) else {
                    bindings.append(.integer(Int64(prefix.unicodeScalars.count)))
                    bindings.append(.text(prefix))
                    return "(\(range) AND substr(\(expr), 1, ?) = ?)"
                }
                bindings.append(.integer(Int64(prefix.utf8.count)))
                bindings.append(.text(prefix))
                return "(\(range) AND substr(CAST(\(exact) AS BLOB), 1, ?) = CAST(? AS BLOB))"
            case .listContains:
                guard case .field(let name) = c.key else { return "0" }
                let element = r.type.primitive == .reference ? "json_extract(value, '$.recordName')" : "value"
                return "EXISTS (SELECT 1 FROM json_each(fields, '$.\(name)') WHERE \(element) = " + bind(c.value) + ")"
            case .withinDistance, .beyondDistance:
                guard case .field(let name) = c.key, case .distance(let origin, let meters) = c.value,
                      case .location(let lat, let lon) = origin else { return "0" }
                distances.append((name, lat, lon, meters, c.op == .withinDistance))
                return "1"
            case .tokenMatch:
                return "0"
            }
        }

        /// `expr = text` that holds for NUL too: SQLite's json_extract (3.40) cuts a string at
        /// its first NUL, so "x\u0000y" read as "x" and matched 'x'. Where the stored JSON or
        /// the value has a NUL, the JSON texts are compared instead (the store writes NUL as
        /// `\u0000`, as json_quote does); elsewhere the indexed expression decides alone.
        mutating func exactStringEquality(_ expr: String, json: String, _ text: String) -> String {
            if text.utf8.contains(0) {
                bindings.append(.text(text))
                return "(\(json) = json_quote(?))"
            }
            bindings.append(.text(text))
            bindings.append(.text(text))
            return "(\(expr) = ? AND (instr(\(json), '\\u0000') = 0 OR \(json) = json_quote(?)))"
        }

        /// `expr OP value` on a string field, exact for NUL too. SQLite's json_extract (3.40)
        /// reads a stored string only up to its first NUL; cutting at the first NUL keeps
        /// order (NUL is the least byte), so the indexed expression is first tested against
        /// the values cut the same way (a condition every match meets, which the B-tree
        /// serves), then the whole string decides (`exact`, which reads past a NUL only where
        /// the stored JSON holds one).
        mutating func exactStringOrder(_ op: QueryPredicateComparison.Operator, _ expr: String, exact: String, _ value: QueryPredicateValue) -> String? {
            // Nil unless every value is a string: the plain comparison serves the rest.
            let values: [String]
            switch value {
            case .string(let v): values = [v]
            case .list(let items): values = items.compactMap { if case .string(let v) = $0 { v } else { nil } }
                guard values.count == items.count, !values.isEmpty else { return nil }
            default: return nil
            }
            let sql: String
            switch op {
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                guard values.count == 1 else { return nil }
                let necessary = op == .less || op == .lessOrEqual ? "<=" : ">="
                sql = "(\(expr) \(necessary) ? AND \(exact) \(op.rawValue) ?)"
            case .between:
                guard values.count == 2 else { return nil }
                sql = "(\(expr) BETWEEN ? AND ? AND \(exact) BETWEEN ? AND ?)"
            default:
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                sql = "(\(expr) IN (\(marks)) AND \(exact) IN (\(marks)))"
            }
            // The values cut at NUL for the indexed test, then the whole values, in that order.
            bindings.append(contentsOf: values.map { .text(Self.cutAtNUL($0)) })
            bindings.append(contentsOf: values.map { .text($0) })
            return sql
        }

        /// The text up to its first NUL: what json_extract reads of a stored string.
        static func cutAtNUL(_ s: String) -> String {
            guard let i = s.utf8.firstIndex(of: 0) else { return s }
            return String(s[..<i])
        }

        /// The least string greater than every string that starts with `prefix`: its last
        /// scalar below U+10FFFF incremented (past the surrogates), the rest dropped. Nil when
        /// no string bounds them (an empty prefix, or U+10FFFF only).
        static func successor(ofPrefix prefix: String) -> String? {
            var scalars = Array(prefix.unicodeScalars)
            while let last = scalars.popLast() {
                guard last.value < 0x10FFFF else { continue }
                let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
                guard let s = Unicode.Scalar(next) else { return nil }
                var out = String.UnicodeScalarView()
                out.append(contentsOf: scalars)
                out.append(s)
                return String(out)
            }
            return nil
        }

        /// `self CONTAINS 'words'`: every word in some searchable field, through the FTS5 tables.
        mutating func tokens(_ v: QueryPredicateValue) -> String {
            guard case .string(let text) = v else { return "0" }
            // NUL separates words too: FTS5 stops reading a query at it ("unterminated string").
            let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "\0" }).map(String.init)
            guard !words.isEmpty else { return "0" }
            // Each word quoted for FTS5, so that its operators (OR, NEAR, *, :) are plain text.
            let match = words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
            var alternatives: [String] = []
            for f in type.fields where f.indexes.contains(.searchable) && !f.isEncrypted && f.type.primitive == .string {
                if let table = searchTables[f.name] {
                    bindings.append(.text(match))
                    alternatives.append("id IN (SELECT rowid FROM \(Store.sqlIdentifier(table)) WHERE value MATCH ?)")
                } else if let expr = StoreQuery.expression(.field(f.name), f.type), !f.type.isList {
                    // SQLite without FTS5: a case-insensitive scan for each word.
                    let each = words.map { w -> String in
                        bindings.append(.text(w))
                        return "instr(lower(\(expr)), lower(?)) > 0"
                    }
                    alternatives.append("(" + each.joined(separator: " AND ") + ")")
                }
            }
            return alternatives.isEmpty ? "0" : "(" + alternatives.joined(separator: " OR ") + ")"
        }
    }
}
