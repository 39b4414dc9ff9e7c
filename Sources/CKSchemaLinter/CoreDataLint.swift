import CKSchemaCoreData
import CKSchemaModel

/// The lint rules for a model mirrored with NSPersistentCloudKitContainer (CK610-CK618).
/// Each reads the Core Data model a schema was mapped from and points into `contents`;
/// a schema from YAML or `.ckdb` has no model and passes them all.
enum CoreDataLint {
    static let types: [any LintRule.Type] = [
        UniqueConstraintRule.self, RequiredAttributeRule.self, RequiredRelationshipRule.self, MissingInverseRule.self,
        OrderedRelationshipRule.self, DenyDeleteRule.self, UnsupportedAttributeTypeRule.self, CrossConfigurationRule.self,
        UnchosenConfigurationRule.self,
    ]

    /// The model was written as SwiftData `@Model` classes (fixes say what to change in Swift).
    static func isSwift(_ schema: Schema) -> Bool { schema.coreDataModel?.language == .swiftData }

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
