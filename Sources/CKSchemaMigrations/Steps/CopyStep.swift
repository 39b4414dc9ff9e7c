import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `copy: { recordType, from, to }`: copies `from` into `to` on every record that has
/// `from`, converting where the conversion is lossless.
struct CopyStep: MigrationStepKind {
    static let key = "copy"
    static let keys = ["recordType", "from", "to"]
    var recordType: String
    var from: String
    var to: String

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType"), let from = args.string("from"), let to = args.string("to") else { return nil }
        return Self(recordType: rt, from: from, to: to)
    }

    var recordTypeName: String? { recordType }
    var fieldName: String? { to }
    var summary: String { "\(recordType).\(from) -> \(recordType).\(to)" }
    var yaml: String {
        " { recordType: \(MigrationWriter.quote(recordType)), from: \(MigrationWriter.quote(from)), to: \(MigrationWriter.quote(to)) }\n"
    }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let a = try c.field(from, of: recordType, in: schema).field
        let b = try c.field(to, of: recordType, in: schema).field
        do throws(DataStepError) { _ = try DataStepSQL.conversionSQL(from: a, to: b) } catch { throw c.fail(error) }
    }

    var isDataStep: Bool { true }

    func dataUpdate(in schema: Schema, at location: SourceLocation?) throws -> RecordsFieldUpdate? {
        guard let t = schema.recordType(named: recordType), let a = t.field(named: from), let b = t.field(named: to) else { return nil }
        let conv: String
        do throws(DataStepError) { conv = try DataStepSQL.conversionSQL(from: a, to: b) } catch {
            throw InputError(.error(error.rule, error.message, at: location, fix: error.fix))
        }
        return RecordsFieldUpdate(recordType: recordType, path: try StoreName.jsonPath(to), value: conv,
                                  conditions: ["json_extract(fields, \(try StoreName.jsonPath(from))) IS NOT NULL"])
    }
}

extension MigrationStepKind where Self == CopyStep {
    static func copy(recordType: String, from: String, to: String) -> Self { CopyStep(recordType: recordType, from: from, to: to) }
}
