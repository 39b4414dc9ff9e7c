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
        for q in schema.queries {
            guard let t = types[q.recordType] else { continue }
            func at(_ places: [Origin], _ i: Int) -> SourceLocation? { i < places.count ? places[i].location : nil }
            let needs: [(String, IndexKind, String, SourceLocation?)] = q.filter.enumerated().map { ($1, .queryable, "filters on", at(q.places.filter, $0)) }
                + q.search.enumerated().map { ($1, .searchable, "searches", at(q.places.search, $0)) }
                + q.sort.enumerated().map { ($1, .sortable, "sorts on", at(q.places.sort, $0)) }
            for (name, kind, verb, written) in needs {
                guard let idx = t.indexesOfAnyField(name), !idx.contains(kind) else { continue }
                let field = t.field(named: name)
                let place = SystemField(rawValue: name) != nil && field == nil ? "system.\(name)" : "fields.\(name)"
                // Adding the index is no fix for an encrypted field: CloudKit cannot index what
                // it cannot read, and an index there is CK105's error.
                let fix = field?.isEncrypted == true
                    ? "'\(name)' is encrypted and CloudKit cannot index it; keep a plaintext copy of the value in another field with '\(kind.rawValue)' and \(verb.hasPrefix("sorts") ? "sort" : verb.hasPrefix("searches") ? "search" : "filter") on that, or take '\(name)' out of the query"
                    : "add '\(kind.rawValue)' to the indexes of \(t.name).\(place)"
                // At the name in the query; the fix-it adds the index where the field declares
                // its indexes, when the reader measured that value (never on an encrypted field).
                let fixIt = field.flatMap { f in f.isEncrypted ? nil : f.indexesFixIt(idx.union([kind]), notation: schema.notation.value) }
                findings.append(LintFinding("query \(q.label) \(verb) '\(name)': Field '\(name)' is not marked \(kind.rawValue)",
                                            at: written, key: q.origin, fix: fix, fixIt: fixIt))
            }
            if !q.filtersRecords && !t.indexes(on: .recordName).contains(.queryable) {
                findings.append(LintFinding("query \(q.label) matches all records: Field 'recordName' is not marked queryable",
                                            at: q.origin, fix: "add 'system: { recordName: [queryable] }' to \(t.name)"))
            }
        }
    }
}
