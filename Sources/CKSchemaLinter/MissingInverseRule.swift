import CKSchemaCoreData
import CKSchemaModel

/// Relationships without an inverse. Source: “Creating a Core Data Model for CloudKit” —
/// “All relationships must have an inverse, in case the records synchronize out of order.”
struct MissingInverseRule: LintRule {
    static let info = RuleInfo(code: "CK613", name: "coredata-no-inverse", summary: "A relationship without an inverse.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.inverseName == nil }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' has no inverse; CloudKit mirroring needs one in case records arrive out of order",
                                        at: r.origin, fix: CoreDataLint.isSwift(schema) ? "add a property on '\(r.destination)' back to '\(entity)' and name it in @Relationship(inverse: \\\(r.destination).property) on '\(r.name)'" : "add a relationship on '\(r.destination)' back to '\(entity)' and choose it as the Inverse of '\(r.name)'"))
        }
    }
}
