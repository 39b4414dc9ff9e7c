import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `addField: { recordType, name, type, ...a field as a schema file writes it }`.
struct AddFieldStep: MigrationStepKind {
    static let key = "addField"
    static let keys = ["recordType", "name"]
    var recordType: String
    var field: Field

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType"), let name = args.string("name"), let nameNode = args.value("name") else { return nil }
        args.cloudKitName(name, nameNode, of: rt)
        var spec: [YAMLPair] = []
        for p in args.pairs where p.name != "recordType" && p.name != "name" { spec.append(p); args.markUsed(p.name) }
        var decoder = SchemaDecoder(file: args.file)
        let f = decoder.field(name: name, at: nameNode, pairs: spec, in: rt)
        guard args.adopt(decoder), let f else { return nil }
        return Self(recordType: rt, field: f)
    }

    var recordTypeName: String? { recordType }
    var fieldName: String? { field.name }
    var summary: String { "\(recordType).\(field.name) (\(field.type)\(field.isEncrypted ? ", encrypted" : ""))" }
    var yaml: String { " { recordType: \(MigrationWriter.quote(recordType)), name: \(MigrationWriter.quote(field.name)), \(MigrationWriter.fieldSpec(field)) }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let t = try c.typeIndex(recordType, in: schema)
        let type = schema.recordTypes[t]
        if c.adoptingFields, let i = type.fields.firstIndex(where: { $0.name == field.name }),
           type.fields[i].type == field.type, type.fields[i].isEncrypted == field.isEncrypted {
            try c.check(field, in: type, schema: schema)
            schema.recordTypes[t].fields[i] = field
            return
        }
        if type.field(named: field.name) != nil {
            throw c.fail(StoreRules.badTarget, "'\(recordType)' already has a field '\(field.name)'", fix: "a field's type cannot change; add a field with a new name and `copy` into it")
        }
        try c.check(field, in: type, schema: schema)
        schema.recordTypes[t].fields.append(field)
    }
}

extension MigrationStepKind where Self == AddFieldStep {
    static func addField(recordType: String, field: Field) -> Self { AddFieldStep(recordType: recordType, field: field) }
}
