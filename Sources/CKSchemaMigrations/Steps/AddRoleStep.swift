import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `addRole: { name }` (or `addRole: name`): a security role for grants.
struct AddRoleStep: MigrationStepKind {
    static let key = "addRole"
    static let keys = ["name"]
    var name: String

    static func parse(scalar: String, _ args: inout StepArguments) -> Self? { Self(name: scalar) }
    static func parse(_ args: inout StepArguments) -> Self? { args.string("name").map { Self(name: $0) } }

    var recordTypeName: String? { nil }
    var summary: String { name }
    var yaml: String { " { name: \(MigrationWriter.quote(name)) }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        guard !schema.knownRoles.contains(name) else { throw c.fail(StoreRules.badTarget, "role '\(name)' already exists") }
        schema.roles.append(Role(name: name))
    }
}

extension MigrationStepKind where Self == AddRoleStep {
    static func addRole(_ name: String) -> Self { AddRoleStep(name: name) }
}
