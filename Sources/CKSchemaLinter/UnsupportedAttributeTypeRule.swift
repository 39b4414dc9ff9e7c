import CKSchemaCoreData
import CKSchemaModel

/// Undefined and ObjectID attributes. Source: “Creating a Core Data Model for CloudKit” —
/// “Undefined and objectID attribute types aren't supported.”
struct UnsupportedAttributeTypeRule: LintRule {
    static let info = RuleInfo(code: "CK616", name: "coredata-unsupported-attribute-type", summary: "An attribute of type Undefined or ObjectID, which CloudKit cannot store.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for (entity, a) in CoreDataLint.attributes(schema, where: { a in a.type == "Undefined" || a.type == "ObjectID" }) {
            findings.append(LintFinding("attribute '\(entity).\(a.name)' is of type \(a.type), which CloudKit mirroring does not support",
                                        at: a.origin, fix: "give it a concrete type, or mark it Transient so it is not mirrored"))
        }
    }
}
