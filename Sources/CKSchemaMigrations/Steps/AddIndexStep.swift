import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `addIndex: { recordType, field, kind }`: an index on a custom or system field
/// (`createdAt`, `recordName`, ...).
struct AddIndexStep: IndexStep {
    static let key = "addIndex"
    static let adds = true
    var index: IndexTarget
}

/// An index step (`addIndex`, `removeIndex`): the same arguments, summary and written form;
/// only the direction of the change differs.
protocol IndexStep: MigrationStepKind {
    /// True for `addIndex`, false for `removeIndex`.
    static var adds: Bool { get }
    var index: IndexTarget { get }
    init(index: IndexTarget)
}

extension IndexStep {
    static var keys: [String] { ["recordType", "field", "kind"] }

    static func parse(_ args: inout StepArguments) -> Self? { IndexTarget.parse(&args).map(Self.init) }

    var recordTypeName: String? { index.recordType }
    var fieldName: String? { index.field }
    var summary: String { index.summary }
    var yaml: String { index.yaml }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        try index.change(&schema, adding: Self.adds, c)
    }
}

/// The record type, field and kind an index step names, and how adding or removing it
/// changes the schema; `addIndex` and `removeIndex` share it.
struct IndexTarget: Sendable, Hashable {
    var recordType: String
    var field: String
    var kind: IndexKind

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType"), let f = args.string("field"), args.string("kind") != nil else { return nil }
        guard let kind: IndexKind = args.choice("kind", "index kind", use: "queryable, searchable or sortable") else { return nil }
        return Self(recordType: rt, field: f, kind: kind)
    }

    var summary: String { "\(recordType).\(field) \(kind.rawValue)" }
    var yaml: String {
        " { recordType: \(MigrationWriter.quote(recordType)), field: \(MigrationWriter.quote(field)), kind: \(kind.rawValue) }\n"
    }

    func change(_ schema: inout Schema, adding: Bool, _ c: StepContext) throws(InputError) {
        let t = try c.typeIndex(recordType, in: schema)
        var set: IndexKinds
        if let sf = SystemField(rawValue: field) { set = schema.recordTypes[t].indexes(on: sf) }
        else { set = schema.recordTypes[t].fields[try c.fieldIndex(t, field, in: schema)].indexes }
        if adding {
            guard !set.contains(kind) else { throw c.fail(StoreRules.badTarget, "\(recordType).\(field) is already \(kind.rawValue)") }
            set.insert(kind)
        } else {
            guard set.contains(kind) else { throw c.fail(StoreRules.badTarget, "\(recordType).\(field) is not \(kind.rawValue)") }
            set.remove(kind)
        }
        if let sf = SystemField(rawValue: field) {
            if adding, let v = CloudKitRules.systemIndexViolation(sf, set, in: schema.recordTypes[t], notation: .yaml) { throw c.fail(v) }
            schema.recordTypes[t].systemIndexes[sf] = set.isEmpty ? nil : set
        } else {
            let i = try c.fieldIndex(t, field, in: schema)
            var f = schema.recordTypes[t].fields[i]
            f.indexes = set
            if adding { try c.check(f, in: schema.recordTypes[t], schema: schema) }
            schema.recordTypes[t].fields[i] = f
        }
    }
}

extension MigrationStepKind where Self == AddIndexStep {
    static func addIndex(recordType: String, field: String, kind: IndexKind) -> Self {
        AddIndexStep(index: IndexTarget(recordType: recordType, field: field, kind: kind))
    }
}
