import CKSchemaModel

/// The legacy NUMBER type of the CloudKit Schema Language.
///
/// Source: CloudKit Schema Language, primitive-type (`NUMBER [PREFERRED AS INT64|DOUBLE]`),
/// kept for old containers; new fields should say INT64 or DOUBLE.
struct LegacyNumberRule: LintRule {
    static let info = RuleInfo(
        code: "CK120", name: "legacy-number-type",
        summary: "A field uses the legacy NUMBER type instead of int64 or double.",
        defaultSeverity: .warning,
        source: "CloudKit Schema Language: primitive-type NUMBER (developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for t in schema.recordTypes {
            // By index: a field is read in place, and copied only when it breaks the rule.
            for i in t.fields.indices where t.fields[i].type.primitive == .number {
                let f = t.fields[i]
                findings.append(LintFinding("field '\(t.name).\(f.name)' uses the legacy type \(schema.notation.value.spell(f.type))",
                                            at: f.typePlace, key: f.origin, fix: "new fields should be int64 or double; a deployed field keeps its type"))
            }
        }
    }
}
