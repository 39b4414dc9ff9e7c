import CKSchemaCoreData
import CKSchemaModel

/// Required relationships. Source: “Creating a Core Data Model for CloudKit” — “All
/// relationships must be optional.”
struct RequiredRelationshipRule: LintRule {
    static let info = RuleInfo(code: "CK612", name: "coredata-required-relationship", summary: "A relationship that is not optional.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in !r.isOptional }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' is required; CloudKit may save relationship changes apart from the objects, so every relationship must be optional",
                                        at: r.origin, fix: CoreDataLint.isSwift(schema) ? "declare '\(r.name)' optional ('\(r.name): \(r.destination)?', or '[\(r.destination)]?' for a to-many)" : "check Optional for '\(r.name)' in the Data Model inspector"))
        }
    }
}
