import CKSchemaModel

/// Checks a parsed predicate against the record type it runs on: every field exists, every
/// value fits its field's type and operator, and every field has the index CloudKit needs.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): "fields in the
/// predicate must be queryable" (the server's error: `Field 'x' is not marked queryable`),
/// BEGINSWITH is for strings, CONTAINS for lists and `self` (tokenized search needs a
/// searchable field), distanceToLocation:fromLocation: for locations.
public enum PredicateChecker {
    /// The resolved type of a key on a record type (nil for `self`).
    package struct Resolved {
        package var type: FieldType
        package var indexes: IndexKinds
        package var isEncrypted: Bool
        /// Where to add an index, for the fix (`fields.title`, `system.recordName`).
        package var place: String
    }

    package static func resolve(_ key: QueryPredicateKey, in type: RecordType) -> Resolved? {
        switch key {
        case .tokens: return nil
        case .system(let s, _):
            return Resolved(type: FieldType(s.type), indexes: type.indexes(on: s), isEncrypted: false, place: "system.\(s.rawValue)")
        case .field(let name):
            guard let f = type.field(named: name) else { return nil }
            return Resolved(type: f.type, indexes: f.indexes, isEncrypted: f.isEncrypted, place: "fields.\(name)")
        }
    }

    /// Every problem, by column. `needIndexes: false` skips the index checks (development
    /// has no index rule for a subscription being written, and tests of types alone).
    public static func check(_ p: QueryPredicate, on type: RecordType, needIndexes: Bool = true) -> [QueryPredicateError] {
        check(p, on: type, needIndexes: needIndexes, notation: .yaml)
    }

    /// The same, with fixes worded in `notation` (a `.ckdb` schema's fix is the field's line).
    package static func check(_ p: QueryPredicate, on type: RecordType, needIndexes: Bool = true, notation: SchemaNotation) -> [QueryPredicateError] {
        var out: [QueryPredicateError] = []
        for c in p.comparisons {
            if c.key == .tokens {
                if case .string = c.value {} else {
                    out.append(QueryPredicateError(PredicateRules.typeMismatch, column: c.valueColumn,
                                              "self CONTAINS searches for words and needs a string, found \(c.value.kindName)"))
                }
                if needIndexes, !type.fields.contains(where: { $0.indexes.contains(.searchable) && !$0.isEncrypted }) {
                    out.append(QueryPredicateError(PredicateRules.needsIndex, column: c.keyColumn,
                                              "self CONTAINS searches the searchable fields of '\(type.name)', and no field of '\(type.name)' is marked searchable",
                                              fix: notation == .ckdb ? "add SEARCHABLE to the string field to search in RECORD TYPE \(type.name)" : "add 'searchable' to the indexes of the string field to search"))
                }
                continue
            }
            guard let r = resolve(c.key, in: type) else {
                let known = type.fields.map(\.name) + QueryPredicateKey.keys(spelled: p.spelling).keys.sorted()
                out.append(QueryPredicateError(PredicateRules.unknownField, column: c.keyColumn,
                                          "'\(type.name)' has no field '\(ControlCharacters.escaped(c.key.spelled))'\(Suggest.phrase(for: c.key.spelled, in: known))",
                                          fix: "correct the field name or add the field to '\(type.name)'"))
                continue
            }
            if let problem = typeProblem(c, r.type) {
                out.append(QueryPredicateError(PredicateRules.typeMismatch, column: problem.column, problem.message, fix: problem.fix))
            }
            if needIndexes, !r.indexes.contains(.queryable), r.type.primitive != .asset {
                let name = c.key.schemaName ?? c.key.spelled
                out.append(QueryPredicateError(PredicateRules.needsIndex, column: c.keyColumn,
                                          "Field '\(name)' is not marked queryable" + (r.isEncrypted ? " (it is encrypted: the server cannot read it)" : ""),
                                          fix: r.isEncrypted ? "query a plaintext field instead; an encrypted field cannot be indexed"
                                              : addQueryable(c.key, in: type, notation: notation) ?? "add 'queryable' to the indexes of \(type.name).\(r.place)"))
            }
        }
        return out.sorted { $0.column < $1.column }
    }

    /// The fix that makes the key queryable, in a `.ckdb`'s words; nil for YAML (`Resolved.place`'s).
    private static func addQueryable(_ key: QueryPredicateKey, in type: RecordType, notation: SchemaNotation) -> String? {
        guard notation == .ckdb else { return nil }
        switch key {
        case .system(let s, _): return notation.addIndex(.queryable, to: s, of: type)
        case .field(let name): return type.field(named: name).map { notation.addIndex(.queryable, to: $0, of: type) }
        case .tokens: return nil
        }
    }

    /// True when a value can stand for a field of primitive type `p`.
    static func fits(_ v: QueryPredicateValue, _ p: PrimitiveType) -> Bool {
        switch (p, v) {
        case (.string, .string), (.reference, .string), (.bytes, .string): true
        case (.int64, .int), (.double, .int), (.double, .double), (.number, .int), (.number, .double): true
        case (.int64, .double(let d)): d.rounded() == d
        case (.timestamp, .date): true
        case (.location, .location): true
        default: false
        }
    }

    private static func typeProblem(_ c: QueryPredicateComparison, _ t: FieldType) -> (column: Int, message: String, fix: String?)? {
        let name = c.key.spelled
        let p = t.primitive
        func mismatch(_ v: QueryPredicateValue) -> (Int, String, String?) {
            var fix: String? = nil
            if p == .timestamp { fix = "compare a timestamp with a date: a %@ argument, CAST(seconds since 2001, \"NSDate\") or CAST(\"2026-05-01T00:00:00Z\", \"NSDate\")" }
            if p == .int64 || p == .double, case .string = v { fix = "write the number without quotes" }
            return (c.valueColumn, "'\(name)' is \(t.description), and \(v.kindName) cannot be compared with it", fix)
        }
        if p == .asset { return (c.keyColumn, "'\(name)' is an asset; CloudKit cannot query assets", nil) }
        switch c.op {
        case .listContains:
            guard t.isList else {
                return (c.opColumn, "CONTAINS matches a list field, and '\(name)' is \(t.description)",
                        p == .string ? "use BEGINSWITH for a prefix, or make the field searchable and use self CONTAINS" : "use ==")
            }
            return fits(c.value, p) ? nil : mismatch(c.value)
        case .withinDistance, .beyondDistance:
            guard p == .location, !t.isList else {
                return (c.keyColumn, "distanceToLocation:fromLocation: needs a location field, and '\(name)' is \(t.description)", nil)
            }
            return nil
        case .tokenMatch:
            return nil
        default:
            break
        }
        if t.isList {
            return (c.opColumn, "'\(name)' is a list; CloudKit matches a list with CONTAINS (or ANY \(name) == value)", "write '\(name) CONTAINS value'")
        }
        if p == .location {
            return (c.keyColumn, "'\(name)' is a location; CloudKit compares locations only with distanceToLocation:fromLocation:", nil)
        }
        switch c.op {
        case .beginsWith:
            guard p == .string else { return (c.opColumn, "BEGINSWITH is for string fields, and '\(name)' is \(t.description)", nil) }
            return fits(c.value, p) ? nil : mismatch(c.value)
        case .in:
            guard case .list(let items) = c.value else {
                return (c.valueColumn, "IN needs a list of values ({a, b}), found \(c.value.kindName)", nil)
            }
            return items.first { !fits($0, p) }.map(mismatch)
        case .between:
            guard case .list(let items) = c.value, items.count == 2 else {
                return (c.valueColumn, "BETWEEN needs two bounds: {lower, upper}", nil)
            }
            if p == .reference || p == .bytes { return (c.opColumn, "'\(name)' is \(t.description) and has no order", nil) }
            return items.first { !fits($0, p) }.map(mismatch)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if p == .reference || p == .bytes { return (c.opColumn, "'\(name)' is \(t.description) and has no order; compare it with == or !=", nil) }
            return fits(c.value, p) ? nil : mismatch(c.value)
        default:
            return fits(c.value, p) ? nil : mismatch(c.value)
        }
    }
}
