import CKSchemaCoreData
import CKSchemaModel

/// Required attributes without a default. Source: NSPersistentCloudKitContainer's model
/// validation — “CloudKit integration requires that all attributes be optional, or have a
/// default value set” (records arrive with fields missing, in any order).
struct RequiredAttributeRule: LintRule {
    static let info = RuleInfo(code: "CK611", name: "coredata-required-attribute", summary: "A non-optional attribute without a default value.", defaultSeverity: .error, source: CoreDataRules.loadValidation)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, a) in CoreDataLint.attributes(schema, where: { a in !a.isOptional && !a.hasDefault }) {
            findings.append(LintFinding("attribute '\(entity).\(a.name)' is required and has no default value; CloudKit mirroring needs every attribute optional or with a default",
                                        at: a.origin, fix: CoreDataLint.isSwift(schema) ? "declare '\(a.name)' optional ('\(a.name): T?') or give it a default ('= ...') in the @Model class" : "check Optional for '\(a.name)' in the Data Model inspector, or give it a default value"))
        }
    }
}
