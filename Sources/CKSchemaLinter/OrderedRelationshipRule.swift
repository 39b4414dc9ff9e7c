import CKSchemaCoreData
import CKSchemaModel

/// Ordered relationships. Source: NSPersistentCloudKitContainer's model validation —
/// “CloudKit integration does not support ordered relationships.”
struct OrderedRelationshipRule: LintRule {
    static let info = RuleInfo(code: "CK614", name: "coredata-ordered-relationship", summary: "An ordered to-many relationship.", defaultSeverity: .error, source: CoreDataRules.loadValidation)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.isOrdered && r.isToMany }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' is ordered; CloudKit mirroring does not support ordered relationships",
                                        at: r.origin, fix: "uncheck Ordered and keep the order in an attribute (for example an Integer 64 'position' on '\(r.destination)')"))
        }
    }
}
