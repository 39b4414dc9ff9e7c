import CKSchemaModel
import CKSchemaPredicate

/// What a declared query needs from the schema. CloudKit refuses, in production only, a
/// query on a field without the index it needs.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): "fields in the
/// predicate must be queryable, sort fields sortable, tokenized search needs searchable";
/// the server's error "Field 'recordName' is not marked queryable" for a query that matches
/// all records (`NSPredicate(value: true)`) when recordName has no queryable index.
struct QueryIndexRule: LintRule {
    static let info = RuleInfo(
        code: "CK110", name: "query-needs-index",
        summary: "A declared query filters on a field that is not queryable, sorts on one that is not sortable, searches one that is not searchable, or matches all records without recordName queryable.",
        defaultSeverity: .error,
        source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery); server error \"Field 'recordName' is not marked queryable\"")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for (q, shortfalls) in zip(schema.queries, context.queryShortfalls) {
            guard let t = types[q.recordType] else { continue }
            // Whether production can run the query is `DeclaredQuery.shortfalls(on:)`'s answer, which
            // `generate swift` asks too (CK953); this rule reports the indexes it lacks. A name the
            // type lacks is CK113's, an index CloudKit cannot hold CK104's or CK105's, a predicate's
            // problems CK700-CK704's.
            for shortfall in shortfalls {
                switch shortfall {
                case .missingIndex(let need):
                    let name = need.name, kind = need.index
                    let verb = switch need.use {
                    case .filter: "filters on"
                    case .search: "searches"
                    case .sort: "sorts on"
                    }
                    let written = q.place(of: need).location
                    let field = need.field
                    // In the schema's own language: a `.ckdb`'s fix is the field's line with the index.
                    let notation = schema.notation.value
                    let add = need.system.map { notation.addIndex(kind, to: $0, of: t) } ?? field.map { notation.addIndex(kind, to: $0, of: t) }
                        ?? "add '\(kind.rawValue)' to the indexes of \(t.name).fields.\(name)"
                    // Adding the index is no fix for an encrypted field: CloudKit cannot index what
                    // it cannot read, and an index there is CK105's error.
                    let fix = field?.isEncrypted == true
                        ? "'\(name)' is encrypted and CloudKit cannot index it; keep a plaintext copy of the value in another field with '\(kind.rawValue)' and \(verb.hasPrefix("sorts") ? "sort" : verb.hasPrefix("searches") ? "search" : "filter") on that, or take '\(name)' out of the query"
                        : add
                    // At the name in the query; the fix-it adds the index where the field declares
                    // its indexes, when the reader measured that value (never on an encrypted field).
                    let fixIt = field.flatMap { f in f.isEncrypted ? nil : f.indexesFixIt(f.indexes.union([kind]), notation: schema.notation.value) }
                    findings.append(LintFinding("query \(q.label) \(verb) '\(name)': Field '\(name)' is not marked \(kind.rawValue)",
                                                at: written, key: q.origin, fix: fix, fixIt: fixIt))
                case .matchesAll:
                    findings.append(LintFinding("query \(q.label) matches all records: Field 'recordName' is not marked queryable",
                                                at: q.origin, fix: schema.notation.value.queryableRecordName(t)))
                case .unknownField, .refusedIndex, .predicate:
                    continue
                }
            }
        }
    }
}
