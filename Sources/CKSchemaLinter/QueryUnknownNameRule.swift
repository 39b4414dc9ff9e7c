import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate

/// A declared query must name a record type and fields that exist.
///
/// Source: CKQuery (developer.apple.com/documentation/cloudkit/ckquery): production refuses
/// unknown record types and fields ("Did not find record type", "Unknown field").
struct QueryUnknownNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK113", name: "query-unknown-name",
        summary: "A declared query names a record type or field the schema does not define.",
        defaultSeverity: .error,
        source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for (q, shortfalls) in zip(schema.queries, context.queryShortfalls) {
            // At the name itself; the one close name is a rename the renderer keeps only where
            // the file holds the name there (`FixIt.verified(against:)`).
            func finding(_ message: String, _ name: String, at place: Origin, among known: [String], fix: String) -> LintFinding {
                let rename = Suggest.closest(to: name, in: known).flatMap { s in place.location.map { FixIt(renaming: name, at: $0, to: s) } }
                return LintFinding(message + Suggest.phrase(for: name, in: known), at: place.location, key: q.origin, fix: fix, fixIt: rename)
            }
            guard let t = types[q.recordType] else {
                findings.append(finding("query \(q.label) names record type '\(q.recordType)', which the schema does not define", q.recordType,
                                        at: q.places.recordType, among: schema.recordTypes.map(\.name), fix: q.spelling == .cloudKit ? "correct the record type the code names, or \(CodeFix.defineRecordType(q.recordType, schema.notation.value))" : "correct 'recordType:' or define the record type"))
                continue
            }
            // A name is a field when `DeclaredQuery.shortfalls(on:)`, the one answer CK110 and
            // `generate swift` ask, finds it (a custom field, a system field, or CloudKit's key for one).
            for case .unknownField(let need) in shortfalls {
                let name = need.name, place = q.place(of: need)
                let known = t.fields.map(\.name) + (q.spelling == .cloudKit ? QueryPredicateKey.cloudKitKeys.keys.sorted() : SystemField.allCases.map(\.rawValue))
                findings.append(finding("query \(q.label) names field '\(name)', which '\(t.name)' does not have", name,
                                        at: place, among: known, fix: "correct the field name or add the field to '\(t.name)'"))
            }
        }
    }
}
