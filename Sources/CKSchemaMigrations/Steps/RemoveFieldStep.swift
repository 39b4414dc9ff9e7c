import CKSchemaDiagnostics
import CKSchemaModel

/// `removeField: { recordType, field }`. Development only: production refuses to delete a
/// deployed field (`ProductionGate` reports it with promote's rule, CK302, and its fix).
struct RemoveFieldStep: MigrationStepKind {
    static let key = "removeField"
    static let keys = ["recordType", "field"]
    var recordType: String
    var field: String

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType"), let f = args.string("field") else { return nil }
        return Self(recordType: rt, field: f)
    }

    var recordTypeName: String? { recordType }
    var fieldName: String? { field }
    var summary: String { "\(recordType).\(field)" }
    var yaml: String { " { recordType: \(MigrationWriter.quote(recordType)), field: \(MigrationWriter.quote(field)) }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let t = try c.typeIndex(recordType, in: schema)
        schema.recordTypes[t].fields.remove(at: try c.fieldIndex(t, field, in: schema))
    }
}

extension MigrationStepKind where Self == RemoveFieldStep {
    static func removeField(recordType: String, field: String) -> Self { RemoveFieldStep(recordType: recordType, field: field) }
}
