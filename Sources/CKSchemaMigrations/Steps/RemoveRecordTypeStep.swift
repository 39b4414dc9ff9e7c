import CKSchemaDiagnostics
import CKSchemaModel

/// `removeRecordType: { name }` (or `removeRecordType: Name`). Development only: production
/// refuses to delete a deployed record type.
struct RemoveRecordTypeStep: MigrationStepKind {
    static let key = "removeRecordType"
    static let keys = ["name"]
    var name: String

    static func parse(scalar: String, _ args: inout StepArguments) -> Self? { Self(name: scalar) }
    static func parse(_ args: inout StepArguments) -> Self? { args.string("name").map { Self(name: $0) } }

    var recordTypeName: String? { name }
    var summary: String { name }
    var yaml: String { " { name: \(MigrationWriter.quote(name)) }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        schema.recordTypes.remove(at: try c.typeIndex(name, in: schema))
    }
}

extension MigrationStepKind where Self == RemoveRecordTypeStep {
    static func removeRecordType(_ name: String) -> Self { RemoveRecordTypeStep(name: name) }
}
