import CKSchemaDiagnostics
import CKSchemaModel

/// `deprecate: { recordType, field? }`: retires a record type or one of its fields, the
/// only way a migration removes anything production has deployed.
struct DeprecateStep: MigrationStepKind {
    static let key = "deprecate"
    static let keys = ["recordType", "field"]
    var recordType: String
    var field: String?

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType") else { return nil }
        return Self(recordType: rt, field: args.string("field", required: false))
    }

    var recordTypeName: String? { recordType }
    var fieldName: String? { field }
    var summary: String { recordType + (field.map { ".\($0)" } ?? "") }
    var yaml: String { " { recordType: \(MigrationWriter.quote(recordType))" + (field.map { ", field: \(MigrationWriter.quote($0))" } ?? "") + " }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let t = try c.typeIndex(recordType, in: schema)
        if let field {
            schema.recordTypes[t].fields[try c.fieldIndex(t, field, in: schema)].isDeprecated = true
        } else {
            schema.recordTypes[t].isDeprecated = true
        }
    }
}

extension MigrationStepKind where Self == DeprecateStep {
    static func deprecate(recordType: String, field: String?) -> Self { DeprecateStep(recordType: recordType, field: field) }
}
