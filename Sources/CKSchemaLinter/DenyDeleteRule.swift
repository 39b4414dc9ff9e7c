import CKSchemaCoreData
import CKSchemaModel

/// The Deny delete rule. Source: “Creating a Core Data Model for CloudKit” — “The Deny
/// deletion rule is not supported.”
struct DenyDeleteRule: LintRule {
    static let info = RuleInfo(code: "CK615", name: "coredata-deny-delete", summary: "A relationship with the Deny delete rule.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.deleteRule == .deny }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' has the Deny delete rule, which CloudKit mirroring does not support",
                                        at: r.origin, fix: "use Nullify or Cascade, and check in code before deleting"))
        }
    }
}
