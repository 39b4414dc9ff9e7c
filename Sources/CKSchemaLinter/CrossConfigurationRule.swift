import CKSchemaCoreData
import CKSchemaModel

/// Relationships that leave the configuration mirrored. Source: “Creating a Core Data
/// Model for CloudKit” — “Entities in a configuration must not have relationships to
/// entities in another configuration.”
struct CrossConfigurationRule: LintRule {
    static let info = RuleInfo(code: "CK617", name: "coredata-cross-configuration", summary: "A relationship from an entity of the CloudKit configuration to an entity outside it.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let names = Set(CoreDataLint.entities(schema).map(\.name))
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in !names.contains(r.destination) }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' points to '\(r.destination)', which is not in the configuration mirrored to CloudKit",
                                        at: r.origin, fix: "add '\(r.destination)' to the configuration, or remove the relationship"))
        }
    }
}
