import CKSchemaYAML
import CKSchemaCKDB
import CKSchemaCoreData
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
        for q in schema.queries {
            guard let t = types[q.recordType] else {
                findings.append(LintFinding("query \(q.label) names record type '\(q.recordType)', which the schema does not define\(Suggest.phrase(for: q.recordType, in: schema.recordTypes.map(\.name)))",
                                            at: q.origin, fix: "correct 'recordType:' or define the record type"))
                continue
            }
            for name in q.filter + q.search + q.sort where t.indexesOfAnyField(name) == nil {
                let known = t.fields.map(\.name) + SystemField.allCases.map(\.rawValue)
                findings.append(LintFinding("query \(q.label) names field '\(name)', which '\(t.name)' does not have\(Suggest.phrase(for: name, in: known))",
                                            at: q.origin, fix: "correct the field name or add the field to '\(t.name)'"))
            }
        }
    }
}
