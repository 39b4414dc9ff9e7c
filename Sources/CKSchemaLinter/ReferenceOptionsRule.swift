import CKSchemaModel

/// `to:` and `action:` belong to reference fields only.
///
/// Source: CKRecord.Reference; CloudKit Schema Language data-type (only REFERENCE points at records).
struct ReferenceOptionsRule: LintRule {
    static let info = RuleInfo(
        code: "CK109", name: "reference-options-on-non-reference",
        summary: "A field that is not a reference has 'to:' or 'action:'.",
        defaultSeverity: .error,
        source: "CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for t in schema.recordTypes {
            // By index: a field is read in place, and copied only when it breaks the rule.
            for i in t.fields.indices where t.fields[i].type.primitive != .reference && (t.fields[i].referenceTarget != nil || t.fields[i].referenceAction != nil) {
                let f = t.fields[i]
                // At the type: making the field a reference is one of the two fixes.
                findings.append(LintFinding("field '\(t.name).\(f.name)' is of type \(f.type), so 'to:' and 'action:' mean nothing",
                                            at: f.typePlace, key: f.origin, fix: "make it a reference or remove 'to:'/'action:'"))
            }
        }
    }
}
