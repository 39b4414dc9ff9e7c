import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// The production schema a promotion is planned from (issue 32 point 1).
///
/// After `verify --update` (or `pull`) ckschema.yaml's production schema is cktool's export, a
/// `.ckdb`, which cannot say zones, a record type's zone, database and `requires:`, declared
/// queries and subscriptions, deprecation, descriptions or reference targets
/// (`CKDBExpressible`). Planned from it as it reads, every round would list those as new. So
/// the plan takes them from what production was deployed as, and lists only the real change.
extension ProductionRecord {
    /// The schemas `production` (ckschema.yaml's production schema) may stand for, best
    /// first; `production` itself when it was not read from a `.ckdb` (it says everything).
    ///
    /// For a `.ckdb`, each is the `.ckdb` with what it cannot say filled in from:
    /// 1. the store's production, when it is the `.ckdb` as far as a `.ckdb` can say (what
    ///    `promote --plan`, `--verify-plan`, `--apply` and `check` plan from);
    /// 2. the production the store's last deploy replaced, when it is the `.ckdb`: between
    ///    `promote --apply` and `verify --update` the committed `.ckdb` is still its export,
    ///    and `verify --plan` binds the plan computed from it (`planned(_:development:store:plan:)`);
    /// 3. the development schema (`CKDBExpressible.carrying`: zones, `requires:`, deprecation,
    ///    of the record types and fields the `.ckdb` has; the declared queries and
    ///    subscriptions on those types), when the store has neither (no store, say in CI).
    ///    The plan then cannot tell a new query or deprecation from one production has.
    public static func plannedCandidates(_ production: Schema, development: Schema, store: Store?) throws(InputError) -> [Schema] {
        guard production.notation.value == .ckdb else { return [production] }
        let wanted = comparable(production, with: production)
        var out: [Schema] = []
        if let store {
            for source in [try store.schema(.production), try store.productionBeforeLastDeploy()].compactMap({ $0 })
            where comparable(source, with: production) == wanted {
                let filled = Self.filled(production, from: source)
                if !out.contains(where: { $0.canonicalHash == filled.canonicalHash }) { out.append(filled) }
            }
        }
        var s = CKDBExpressible.carrying(production, from: development)
        s.queries = development.queries.filter { s.recordType(named: $0.recordType) != nil }
        s.subscriptions = development.subscriptions.filter { sub in
            if let t = sub.recordType { return s.recordType(named: t) != nil }
            if let z = sub.zone { return s.zone(named: z) != nil }
            return !s.recordTypes.isEmpty
        }
        out.append(s)
        return out
    }

    /// The production schema to plan from: the best of `plannedCandidates`, or, given the
    /// `sha256` of the production schema a plan file was computed from (`verify --plan`), the
    /// candidate with that hash when there is one.
    public static func planned(_ production: Schema, development: Schema, store: Store?, plan fromHash: String? = nil) throws(InputError) -> Schema {
        let candidates = try plannedCandidates(production, development: development, store: store)
        if let fromHash, let match = candidates.first(where: { $0.canonicalHash == fromHash }) { return match }
        return candidates[0]
    }

    /// `ckdb` with everything it cannot say taken from `source` (a production it is): the
    /// record types' zones, databases, `requires:`, deprecation, descriptions, reference
    /// targets, and every zone, declared query and subscription of `source`.
    static func filled(_ ckdb: Schema, from source: Schema) -> Schema {
        var s = CKDBExpressible.carrying(ckdb, from: source)
        for z in source.zones where s.zone(named: z.name) == nil { s.zones.append(z) }
        s.queries = source.queries
        s.subscriptions = source.subscriptions
        return s
    }
}
