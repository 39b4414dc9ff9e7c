import CKSchemaCoreData
import CKSchemaModel

/// Entities with uniqueness constraints. Source: “Creating a Core Data Model for CloudKit”
/// — Entities: “Unique constraints aren't supported.”
struct UniqueConstraintRule: LintRule {
    static let info = RuleInfo(code: "CK610", name: "coredata-unique-constraint", summary: "An entity of a CloudKit-mirrored model has a uniqueness constraint.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for e in CoreDataLint.entities(schema) {
            for c in e.uniquenessConstraints {
                findings.append(LintFinding("entity '\(e.name)' has a uniqueness constraint on [\(c.properties.joined(separator: ", "))]; CloudKit mirroring does not support unique constraints",
                                            at: c.origin, fix: CoreDataLint.isSwift(schema) ? "remove .unique / #Unique and deduplicate in code (for example after import, on persistent history)" : "remove the constraint in Xcode's Data Model inspector and deduplicate in code (for example after import, on persistent history)"))
            }
        }
    }
}
