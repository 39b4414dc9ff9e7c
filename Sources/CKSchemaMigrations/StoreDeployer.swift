import CKSchemaRuntime

/// `promote --apply`: deploys a development schema to the store's production environment,
/// as the CloudKit Console's "Deploy Schema Changes" does: the schema only, never records.
///
/// The promote command checks its plan (no forbidden step, hashes of both schemas) and then
/// calls `deploy`; `deploy` checks again against the store itself, so a plan computed from
/// another production schema than the store holds is refused as stale.
/// Source: Apple, "Deploying an iCloud Container's Schema".
public enum StoreDeployer {
    /// What a deploy did.
    public struct Result: Sendable {
        /// The production schema hash before and after.
        public var fromHash: String
        public var toHash: String
        /// The number of changes the plan deployed (0 when deployed without a plan).
        public var changes = 0
    }

    /// `promote --apply PLAN`: the plan file must be a plan of exactly `from` -> `to`
    /// (CK390-CK392) with no forbidden step; then `to` is deployed to the store's production.
    ///
    /// - Throws: `InputError`: the plan's errors; for a plan with forbidden steps, those
    ///   steps and a CK540 error saying nothing was deployed; the deploy's own errors.
    public static func apply(planAt path: String, from: Schema, to: Schema, store: Store, migrations: MigrationFolder?) throws(InputError) -> Result {
        let plan = try PromotionPlan.load(path: path)
        try plan.verify(from: from, to: to, file: path)
        if plan.fails(on: .forbidden) {
            throw InputError(plan.diagnostics(minimum: .forbidden) + [Diagnostic(
                rule: StoreRules.productionForbidden,
                "the plan '\(path)' has \(plan.count(.forbidden)) forbidden change(s); production would refuse it, so nothing was deployed",
                at: nil, fix: "apply the fixes the plan gives, compute the plan again, then apply it")])
        }
        var result = try deploy(expectedProduction: from, development: to, store: store, migrations: migrations)
        result.changes = plan.steps.count
        return result
    }

    /// Replaces the store's production schema (zones, indexes) with `development`.
    /// - Parameters:
    ///   - expectedProduction: the production schema the plan was computed from.
    ///   - development: the schema to deploy.
    /// - Throws: `InputError` — CK534 when the store's production schema is not
    ///   `expectedProduction` (the plan is stale); the promote rules' forbidden codes when
    ///   production would refuse a change.
    /// - Parameter migrations: the migrations folder. When replaying its first N migrations
    ///   gives exactly the schema deployed, production's history records those N as applied
    ///   (by this deploy), so `migrate status --env production` agrees with the deploy.
    public static func deploy(expectedProduction: Schema, development: Schema, store: Store, migrations: MigrationFolder? = nil) throws(InputError) -> Result {
        let current = try store.schema(.production)
        if current.storeNormalized != expectedProduction.storeNormalized {
            let delta = MigrationGenerator.steps(from: expectedProduction, to: current)
            let what = (delta.steps.map(\.summary) + delta.refused.map(\.message)).prefix(3).joined(separator: "; ")
            throw InputError(Diagnostic(rule: StoreRules.storeDrift,
                                    "the store's production schema is not the one the plan was computed from (the plan is stale)\(what.isEmpty ? "" : ": \(what)")",
                                    at: nil, fix: "compute the plan again against the store's production schema, review it, then apply it"))
        }
        let refused = ProductionGate.forbiddenChanges(from: current, to: development)
        if !refused.isEmpty { throw InputError(refused) }
        let history = try deployedHistory(development, folder: migrations, store: store)
        try store.guarded("deploy the schema to production") {
            try store.db.transaction {
                try store.writeSchema(development, env: .production)
                for m in history { try store.recordHistory(m, env: .production) }
            }
        }
        return Result(fromHash: current.canonicalHash, toHash: development.canonicalHash)
    }

    /// The migrations not yet in production's history whose replay gives `deployed`: the
    /// history the deploy brings with it. Empty when no prefix of the folder gives it (the
    /// deployed schema was not made by migrations; `migrate status` then reports drift).
    static func deployedHistory(_ deployed: Schema, folder: MigrationFolder?, store: Store) throws(InputError) -> [AppliedMigration] {
        guard let folder, !folder.migrations.isEmpty else { return [] }
        let applied = try store.history(.production)
        let last = applied.last?.version ?? 0
        let target = deployed.storeNormalized
        // The longest prefix first: a deploy carries every migration the schema includes.
        for m in folder.migrations.reversed() where m.version > last {
            guard let replayed = try? folder.replay(upTo: m.version), replayed.storeNormalized == target else { continue }
            let now = Store.now()
            return folder.migrations.filter { $0.version > last && $0.version <= m.version }.map {
                AppliedMigration(version: $0.version, name: $0.name, checksum: $0.checksum, appliedAt: now,
                                 durationMilliseconds: 0, ckschemaVersion: CKSchemaVersion.current)
            }
        }
        return []
    }
}
