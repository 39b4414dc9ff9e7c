import CKSchemaDiagnostics
import CKSchemaModel

/// `setGrants: { recordType, grants: { role: [permissions] } }`: replaces a type's grants.
struct SetGrantsStep: MigrationStepKind {
    static let key = "setGrants"
    static let keys = ["recordType", "grants"]
    var recordType: String
    var grants: [Grant]

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let rt = args.string("recordType") else { return nil }
        guard let g = args.value("grants") else { args.fail("`setGrants` needs `grants:`", args.node); return nil }
        return Self(recordType: rt, grants: args.grants(g))
    }

    var recordTypeName: String? { recordType }
    var summary: String { "\(recordType) (\(grants.map(\.role).joined(separator: ", ")))" }
    var yaml: String { "\n      recordType: \(MigrationWriter.quote(recordType))\n      grants:\n" + MigrationWriter.grants(grants, indent: "        ") }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let t = try c.typeIndex(recordType, in: schema)
        try c.checkRoles(grants, in: schema)
        schema.recordTypes[t].grants = grants
    }
}

extension MigrationStepKind where Self == SetGrantsStep {
    static func setGrants(recordType: String, grants: [Grant]) -> Self { SetGrantsStep(recordType: recordType, grants: grants) }
}
