import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `removeSubscription: { id }` (or `removeSubscription: id`). CloudKit deletes
/// subscriptions in both environments.
struct RemoveSubscriptionStep: MigrationStepKind {
    static let key = "removeSubscription"
    static let keys = ["id"]
    var id: String

    static func parse(scalar: String, _ args: inout StepArguments) -> Self? { Self(id: scalar) }
    static func parse(_ args: inout StepArguments) -> Self? { args.string("id").map { Self(id: $0) } }

    var recordTypeName: String? { nil }
    var summary: String { id }
    var yaml: String { " { id: \(MigrationWriter.quote(id)) }\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        guard let i = schema.subscriptions.firstIndex(where: { $0.id == id }) else {
            throw c.fail(StoreRules.badTarget, "subscription '\(id)' does not exist\(Suggest.phrase(for: id, in: schema.subscriptions.map(\.id)))")
        }
        schema.subscriptions.remove(at: i)
    }
}

extension MigrationStepKind where Self == RemoveSubscriptionStep {
    static func removeSubscription(_ id: String) -> Self { RemoveSubscriptionStep(id: id) }
}
