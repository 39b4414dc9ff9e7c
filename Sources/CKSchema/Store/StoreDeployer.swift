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
    }

    /// Replaces the store's production schema (zones, indexes) with `development`.
    /// - Parameters:
    ///   - expectedProduction: the production schema the plan was computed from.
    ///   - development: the schema to deploy.
    /// - Throws: `InputError` — CK534 when the store's production schema is not
    ///   `expectedProduction` (the plan is stale); the promote rules' forbidden codes when
    ///   production would refuse a change.
    public static func deploy(expectedProduction: Schema, development: Schema, store: Store) throws(InputError) -> Result {
        let current = try store.schema(.production)
        if current.storeNormalized != expectedProduction.storeNormalized {
            let delta = MigrationGenerator.steps(from: expectedProduction, to: current)
            let what = (delta.steps.map(\.summary) + delta.refused.map(\.message)).prefix(3).joined(separator: "; ")
            throw InputError(.error(StoreRules.storeDrift.code,
                                    "the store's production schema is not the one the plan was computed from (the plan is stale)\(what.isEmpty ? "" : ": \(what)")",
                                    at: nil, fix: "compute the plan again against the store's production schema, review it, then apply it"))
        }
        let refused = ProductionGate.forbiddenChanges(from: current, to: development)
        if !refused.isEmpty { throw InputError(refused) }
        try store.guarded("deploy the schema to production") {
            try store.db.transaction { try store.writeSchema(development, env: .production) }
        }
        return Result(fromHash: current.canonicalHash, toHash: development.canonicalHash)
    }
}
