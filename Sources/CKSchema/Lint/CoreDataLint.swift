/// The lint rules for a model mirrored with NSPersistentCloudKitContainer (CK610-CK617).
/// Each reads the Core Data model a schema was mapped from and points into `contents`;
/// a schema from YAML or `.ckdb` has no model and passes them all.
enum CoreDataLint {
    static let types: [any LintRule.Type] = [
        UniqueConstraintRule.self, RequiredAttributeRule.self, RequiredRelationshipRule.self, MissingInverseRule.self,
        OrderedRelationshipRule.self, DenyDeleteRule.self, UnsupportedAttributeTypeRule.self, CrossConfigurationRule.self,
    ]

    /// The entities mirrored (those of the configuration used), in model order.
    static func entities(_ schema: Schema) -> [CoreDataModel.Entity] {
        guard let model = schema.coreDataModel else { return [] }
        return (try? CoreDataMapping.entities(of: model, configuration: schema.coreDataConfiguration)) ?? model.entities
    }

    /// The mirrored (non-transient) attributes of the mirrored entities that `test` holds for.
    static func attributes(_ schema: Schema, where test: (CoreDataModel.Attribute) -> Bool) -> [(entity: String, attribute: CoreDataModel.Attribute)] {
        entities(schema).flatMap { e in e.attributes.filter { !$0.isTransient && test($0) }.map { (e.name, $0) } }
    }

    /// The mirrored (non-transient) relationships of the mirrored entities that `test` holds for.
    static func relationships(_ schema: Schema, where test: (CoreDataModel.Relationship) -> Bool) -> [(entity: String, relationship: CoreDataModel.Relationship)] {
        entities(schema).flatMap { e in e.relationships.filter { !$0.isTransient && test($0) }.map { (e.name, $0) } }
    }
}

/// Entities with uniqueness constraints. Source: “Creating a Core Data Model for CloudKit”
/// — Entities: “Unique constraints aren't supported.”
struct UniqueConstraintRule: LintRule {
    static let info = RuleInfo(code: "CK610", name: "coredata-unique-constraint", summary: "An entity of a CloudKit-mirrored model has a uniqueness constraint.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for e in CoreDataLint.entities(schema) {
            for c in e.uniquenessConstraints {
                findings.append(LintFinding("entity '\(e.name)' has a uniqueness constraint on [\(c.properties.joined(separator: ", "))]; CloudKit mirroring does not support unique constraints",
                                            at: c.origin, fix: "remove the constraint in Xcode's Data Model inspector and deduplicate in code (for example after import, on persistent history)"))
            }
        }
    }
}

/// Required attributes without a default. Source: NSPersistentCloudKitContainer's model
/// validation — “CloudKit integration requires that all attributes be optional, or have a
/// default value set” (records arrive with fields missing, in any order).
struct RequiredAttributeRule: LintRule {
    static let info = RuleInfo(code: "CK611", name: "coredata-required-attribute", summary: "A non-optional attribute without a default value.", defaultSeverity: .error, source: CoreDataRules.loadValidation)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, a) in CoreDataLint.attributes(schema, where: { a in !a.isOptional && !a.hasDefault }) {
            findings.append(LintFinding("attribute '\(entity).\(a.name)' is required and has no default value; CloudKit mirroring needs every attribute optional or with a default",
                                        at: a.origin, fix: "check Optional for '\(a.name)' in the Data Model inspector, or give it a default value"))
        }
    }
}

/// Required relationships. Source: “Creating a Core Data Model for CloudKit” — “All
/// relationships must be optional.”
struct RequiredRelationshipRule: LintRule {
    static let info = RuleInfo(code: "CK612", name: "coredata-required-relationship", summary: "A relationship that is not optional.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in !r.isOptional }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' is required; CloudKit may save relationship changes apart from the objects, so every relationship must be optional",
                                        at: r.origin, fix: "check Optional for '\(r.name)' in the Data Model inspector"))
        }
    }
}

/// Relationships without an inverse. Source: “Creating a Core Data Model for CloudKit” —
/// “All relationships must have an inverse, in case the records synchronize out of order.”
struct MissingInverseRule: LintRule {
    static let info = RuleInfo(code: "CK613", name: "coredata-no-inverse", summary: "A relationship without an inverse.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.inverseName == nil }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' has no inverse; CloudKit mirroring needs one in case records arrive out of order",
                                        at: r.origin, fix: "add a relationship on '\(r.destination)' back to '\(entity)' and choose it as the Inverse of '\(r.name)'"))
        }
    }
}

/// Ordered relationships. Source: NSPersistentCloudKitContainer's model validation —
/// “CloudKit integration does not support ordered relationships.”
struct OrderedRelationshipRule: LintRule {
    static let info = RuleInfo(code: "CK614", name: "coredata-ordered-relationship", summary: "An ordered to-many relationship.", defaultSeverity: .error, source: CoreDataRules.loadValidation)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.isOrdered && r.isToMany }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' is ordered; CloudKit mirroring does not support ordered relationships",
                                        at: r.origin, fix: "uncheck Ordered and keep the order in an attribute (for example an Integer 64 'position' on '\(r.destination)')"))
        }
    }
}

/// The Deny delete rule. Source: “Creating a Core Data Model for CloudKit” — “The Deny
/// deletion rule is not supported.”
struct DenyDeleteRule: LintRule {
    static let info = RuleInfo(code: "CK615", name: "coredata-deny-delete", summary: "A relationship with the Deny delete rule.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in r.deleteRule == .deny }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' has the Deny delete rule, which CloudKit mirroring does not support",
                                        at: r.origin, fix: "use Nullify or Cascade, and check in code before deleting"))
        }
    }
}

/// Undefined and ObjectID attributes. Source: “Creating a Core Data Model for CloudKit” —
/// “Undefined and objectID attribute types aren't supported.”
struct UnsupportedAttributeTypeRule: LintRule {
    static let info = RuleInfo(code: "CK616", name: "coredata-unsupported-attribute-type", summary: "An attribute of type Undefined or ObjectID, which CloudKit cannot store.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for (entity, a) in CoreDataLint.attributes(schema, where: { a in a.type == "Undefined" || a.type == "ObjectID" }) {
            findings.append(LintFinding("attribute '\(entity).\(a.name)' is of type \(a.type), which CloudKit mirroring does not support",
                                        at: a.origin, fix: "give it a concrete type, or mark it Transient so it is not mirrored"))
        }
    }
}

/// Relationships that leave the configuration mirrored. Source: “Creating a Core Data
/// Model for CloudKit” — “Entities in a configuration must not have relationships to
/// entities in another configuration.”
struct CrossConfigurationRule: LintRule {
    static let info = RuleInfo(code: "CK617", name: "coredata-cross-configuration", summary: "A relationship from an entity of the CloudKit configuration to an entity outside it.", defaultSeverity: .error, source: CoreDataRules.creatingModel)
    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let names = Set(CoreDataLint.entities(schema).map(\.name))
        for (entity, r) in CoreDataLint.relationships(schema, where: { r in !names.contains(r.destination) }) {
            findings.append(LintFinding("relationship '\(entity).\(r.name)' points to '\(r.destination)', which is not in the configuration mirrored to CloudKit",
                                        at: r.origin, fix: "add '\(r.destination)' to the configuration, or remove the relationship"))
        }
    }
}
