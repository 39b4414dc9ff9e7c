import CKSchemaModel

/// A field named like a CKRecord property cannot be set through the record's subscript.
///
/// Source: CKRecord, "Accessing the record's fields": keys must not conflict with the
/// names of CKRecord's own properties (developer.apple.com/documentation/cloudkit/ckrecord).
struct ReservedFieldNameRule: LintRule {
    static let info = CloudKitRule.reservedFieldName.info

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for t in schema.recordTypes {
            // By index: a field is read in place, not copied.
            for i in t.fields.indices {
                if let v = CloudKitRules.reservedNameViolation(t.fields[i].name, inType: t.name) { findings.append(LintFinding(v.message, at: t.fields[i].origin, fix: v.fix)) }
            }
        }
    }
}
