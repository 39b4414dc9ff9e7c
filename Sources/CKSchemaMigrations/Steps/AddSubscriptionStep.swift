import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaStore
import CKSchemaYAML

/// `addSubscription: { id, type, ... }`: a subscription as a schema file writes it; the
/// store then evaluates it on every save (docs/runtime.md).
struct AddSubscriptionStep: MigrationStepKind {
    static let key = "addSubscription"
    static let keys = ["id", "type", "database", "recordType", "predicate", "zone", "firesOn", "desiredKeys"]
    var subscription: Subscription

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let id = args.string("id"), args.string("type") != nil else { return nil }
        guard let kind: Subscription.Kind = args.choice("type", "subscription type", use: "query, zone or database") else { return nil }
        var s = Subscription(id: id, kind: kind, origin: args.origin)
        if let db: Database = args.choice("database", required: false, "database", use: "public, private or shared") { s.database = db }
        s.recordType = args.string("recordType", required: false)
        s.predicate = args.string("predicate", required: false)
        s.zone = args.string("zone", required: false)
        s.firesOn = args.set("firesOn", "event", use: "create, update or delete")
        if let keys = args.value("desiredKeys") { s.desiredKeys = args.names(keys, what: "`desiredKeys`").map(\.0) }
        return Self(subscription: s)
    }

    var recordTypeName: String? { subscription.recordType }
    var summary: String { "\(subscription.id) (\(subscription.kind.rawValue)\(subscription.recordType.map { " on \($0)" } ?? ""))" }
    var yaml: String { " { id: \(MigrationWriter.quote(subscription.id)), " + SchemaEmitter.subscriptionValue(subscription).dropFirst(2) + "\n" }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let s = subscription
        guard schema.subscription(withID: s.id) == nil else {
            throw c.fail(StoreRules.badTarget, "subscription '\(s.id)' already exists", fix: "remove it first with `removeSubscription`, or use another ID")
        }
        if let tn = s.recordType { _ = try c.typeIndex(tn, in: schema) }
        try c.checkZone(s.zone, in: schema)
        // The store evaluates the predicate on every save: it must be one CloudKit accepts on this type.
        if s.kind == .query, let t = s.recordType.flatMap(schema.recordType(named:)) {
            let p: QueryPredicate
            do throws(QueryPredicateError) { p = try PredicateParser.parse(s.predicate ?? "TRUEPREDICATE") } catch {
                throw c.fail(StoreRules.invalidStep, "the predicate of '\(s.id)': \(error.message) [\(error.rule.code)]", fix: error.fix)
            }
            if let e = PredicateChecker.check(p, on: t, needIndexes: false).first {
                throw c.fail(StoreRules.invalidStep, "the predicate of '\(s.id)': \(e.message) [\(e.rule.code)]", fix: e.fix)
            }
        }
        schema.subscriptions.append(s)
    }
}

extension MigrationStepKind where Self == AddSubscriptionStep {
    static func addSubscription(_ s: Subscription) -> Self { AddSubscriptionStep(subscription: s) }
}
