import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaMigrations
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `promote --apply`: deploys a development schema to the store's production environment,
/// as the CloudKit Console's "Deploy Schema Changes" does: the schema only, never records.
///
/// The plan file is read once, here, by `PromotionPlan.bind` (as `promote --verify-plan` and
/// `verify --plan` read it): it must be a plan of exactly `from` -> `to` (its hashes), its
/// steps must be the steps those schemas give with the repository's `promote:` settings
/// (`PromotionPlan.production`, the one production rule set), and the store's production
/// must be `from`; then `to` is deployed.
/// Source: Apple, "Deploying an iCloud Container's Schema".
public enum StoreDeployer {
    /// What a deploy did, or why it deployed nothing.
    public struct Result: Sendable {
        /// The production schema hash before and after.
        public var fromHash: String
        public var toHash: String
        /// The steps deployed, in plan order (empty when deployed without a plan).
        public var steps: [PromotionStep] = []
        /// Findings that stopped the deploy (exit 1): the plan's steps are not the steps its
        /// schemas give, or a step is forbidden. Nothing was written when this is not empty.
        public var refused: [Diagnostic] = []

        /// The number of changes deployed.
        public var changes: Int { steps.count }
    }

    /// `promote --apply PLAN`. The store is opened (`openStore`) only once the plan is bound
    /// and has no forbidden step: a refused plan creates no store (issue 35).
    ///
    /// - Parameter settings: the repository's `promote:` settings, as `promote --plan` used.
    /// - Returns: the deploy, or (`refused`) the findings that stopped it: steps that differ
    ///   from what the schemas give (CK393, naming the first), forbidden steps.
    /// - Throws: `InputError` (exit 2): the plan file's errors (CK390-CK392); the store's
    ///   production is not `from` (CK534); the store's own errors.
    public static func apply(planAt path: String, from: Schema, to: Schema, settings: RuleSettings = RuleSettings(),
                             opening openStore: () throws(InputError) -> Store, migrations: MigrationFolder?) throws(InputError) -> Result {
        let bound = try PromotionPlan.bind(planAt: path, from: from, to: to, settings: settings)
        let plan = bound.plan
        if !bound.refused.isEmpty { return Result(fromHash: plan.fromHash, toHash: plan.toHash, refused: bound.refused) }
        if plan.fails(on: .forbidden) {
            return Result(fromHash: plan.fromHash, toHash: plan.toHash, refused: plan.diagnostics(minimum: .forbidden) + [Diagnostic(
                rule: StoreRules.productionForbidden,
                "the plan '\(path)' has \(plan.count(.forbidden)) forbidden change(s); production would refuse it, so nothing was deployed",
                at: nil, fix: "apply the fixes the plan gives, compute the plan again, then apply it")])
        }
        var result = try deploy(expectedProduction: from, development: to, store: try openStore(), migrations: migrations, settings: settings)
        result.steps = plan.steps
        return result
    }

    /// Replaces the store's production schema (zones, indexes) with `development`.
    /// - Parameters:
    ///   - expectedProduction: the production schema the plan was computed from.
    ///   - development: the schema to deploy.
    /// - Throws: `InputError` — CK534 when the store's production schema is not
    ///   `expectedProduction` (the plan is stale, or production was never baselined); the
    ///   production rules' forbidden codes when production would refuse a change.
    /// - Parameter migrations: the migrations folder. When replaying its first N migrations
    ///   gives exactly the schema deployed, production's history records those N as applied
    ///   (by this deploy), so `migrate status --env production` agrees with the deploy.
    ///   - settings: the repository's `promote:` settings.
    public static func deploy(expectedProduction: Schema, development: Schema, store: Store, migrations: MigrationFolder? = nil,
                              settings: RuleSettings = RuleSettings()) throws(InputError) -> Result {
        let current = try store.schema(.production)
        // What the plan's production file cannot say (a `.ckdb`: zones, `requires:`, queries)
        // is not a difference: the store keeps it, and deploys the development schema's.
        if ProductionRecord.comparable(current, with: expectedProduction) != ProductionRecord.comparable(expectedProduction, with: expectedProduction) {
            throw InputError(Diagnostic(rule: StoreRules.storeDrift, driftMessage(store: current, expected: expectedProduction),
                                        at: nil, fix: try driftFix(store: current, production: expectedProduction, folder: migrations)))
        }
        let refused = ProductionGate.forbidden(from: current, to: development, settings: settings)
        if !refused.isEmpty { throw InputError(refused) }
        let history = try deployedHistory(development, folder: migrations, store: store)
        // A promotion with no change keeps production as it is, and its hash (issue 32 point 4):
        // only the migrations it brings (a data step changes no schema) are recorded.
        let unchanged = SchemaDiff.compute(from: expectedProduction, to: development).changes.isEmpty
            && SchemaDiff.compute(from: current, to: development).changes.isEmpty
        try store.guarded("deploy the schema to production") {
            try store.db.transaction {
                if !unchanged {
                    // What this deploy replaces: the committed `.ckdb` stays its export until
                    // `verify --update`, and `verify --plan` binds the plan computed from it.
                    try store.recordReplacedProduction(current)
                    try store.writeSchema(development, env: .production)
                }
                for m in history { try store.recordHistory(m, env: .production) }
            }
        }
        return Result(fromHash: current.canonicalHash, toHash: unchanged ? current.canonicalHash : development.canonicalHash)
    }

    /// "the store's production schema is not the one the plan was computed from", with the
    /// first differences as the diff words them.
    static func driftMessage(store current: Schema, expected: Schema) -> String {
        let delta = SchemaDiff.compute(from: ProductionRecord.comparable(current, with: expected), to: ProductionRecord.comparable(expected, with: expected)).changes
        let what = delta.prefix(3).map(\.description).joined(separator: "; ")
        if current.recordTypes.isEmpty && current.zones.isEmpty {
            return "the store's production environment is empty, but the plan was computed from a production schema that is not\(what.isEmpty ? "" : " (\(what)\(delta.count > 3 ? "; ..." : ""))")"
        }
        return "the store's production schema is not the one the plan was computed from (the plan is stale)\(what.isEmpty ? "" : ": store -> plan: \(what)\(delta.count > 3 ? "; ..." : "")")"
    }

    static func driftFix(store current: Schema, production: Schema, folder: MigrationFolder?) throws(InputError) -> String {
        current.recordTypes.isEmpty && current.zones.isEmpty
            ? "record what production holds in the store first: " + (try ProductionRecord.fix(recording: production, folder: folder)) + " (docs/migrations.md, \"Adopting production\")"
            : "compute the plan again against the store's production schema, review it, then apply it"
    }

    /// The migrations not yet in production's history whose replay gives `deployed`: the
    /// history the deploy brings with it. Empty when no prefix of the folder gives it (the
    /// deployed schema was not made by migrations; `migrate status` then reports drift).
    /// The folder is replayed once.
    static func deployedHistory(_ deployed: Schema, folder: MigrationFolder?, store: Store) throws(InputError) -> [AppliedMigration] {
        guard let folder, !folder.migrations.isEmpty else { return [] }
        let last = try store.history(.production).last?.version ?? 0
        let target = deployed.storeNormalized
        let replays = try folder.replays()
        // The longest prefix: a deploy carries every migration the schema includes.
        guard let end = replays.indices.reversed().first(where: { folder.migrations[$0].version > last && replays[$0].storeNormalized == target }) else { return [] }
        let now = Store.now()
        return folder.migrations[...end].filter { $0.version > last }.map {
            AppliedMigration(version: $0.version, name: $0.name, checksum: $0.checksum, appliedAt: now,
                             durationMilliseconds: 0, ckschemaVersion: CKSchemaVersion.current)
        }
    }
}
