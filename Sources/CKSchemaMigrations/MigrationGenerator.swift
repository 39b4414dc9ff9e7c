import Foundation
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `migrate new`: the steps that take the schema the migrations produce to the development
/// schema, refusing the changes production would refuse (with what to do instead).
public enum MigrationGenerator {
    /// The steps from `old` to `new`, and the changes no allowed step can make.
    ///
    /// With `production` and the folder's `migrations`, a field or record type that is gone
    /// from the development schema and that production never had is not "deprecate it": the
    /// refusal names the migration that adds it, to take it out of (issue 32 point 8).
    public static func steps(from old: Schema, to new: Schema, production: Production? = nil, migrations: [Migration] = []) -> (steps: [MigrationStep], refused: [Diagnostic]) {
        var g = Generation()
        g.production = production
        g.migrations = migrations
        g.zones(old, new)
        g.roles(old, new)
        for t in new.recordTypes {
            if let ot = old.recordType(named: t.name) { g.recordType(ot, t) } else { g.add(.addRecordType(cleaned(t))) }
        }
        g.subscriptions(old, new)
        for t in old.recordTypes where new.recordType(named: t.name) == nil {
            if g.neverInProduction(t.name, field: nil) { continue }
            g.refuse("record type '\(t.name)' is gone from the development schema; production never deletes a deployed record type",
                     "put it back with `deprecated: true`", .unknown)
        }
        return (g.steps, g.refused)
    }

    /// A record type as a step writes it: no origin (it would point into the schema file).
    private static func cleaned(_ t: RecordType) -> RecordType {
        var clean = t
        clean.origin = .unknown
        return clean
    }

    /// The steps found so far and the changes refused, one part of the schema at a time.
    private struct Generation {
        var steps: [MigrationStep] = []
        var refused: [Diagnostic] = []
        var production: Production?
        var migrations: [Migration] = []

        /// True, after refusing it with that advice, when production is known and never had
        /// the record type (or its field) gone from the development schema: a migration not yet
        /// in production adds it, and taking it out of that migration is what works, not a
        /// deprecation of something production does not have.
        mutating func neverInProduction(_ type: String, field: String?) -> Bool {
            guard let production else { return false }
            let deployed = production.schema.recordType(named: type)
            if let field { if deployed?.field(named: field) != nil { return false } } else if deployed != nil { return false }
            let what = field.map { "field '\(type).\($0)'" } ?? "record type '\(type)'"
            // The last migration that adds it: its own addField, or the addRecordType that has it.
            var adder: (Migration, MigrationStep)?
            for m in migrations.reversed() {
                if let step = m.steps.last(where: { s in
                    s.recordTypeName == type && (field.map { s.kindName == "addField" && s.fieldName == $0 } ?? false || s.kindName == "addRecordType")
                }) { adder = (m, step); break }
            }
            let rebuild = "then run `ckschema migrate hash`; if the development store has applied it, rebuild that store too (docs/migrations.md, \"When a migration is wrong\")"
            if case let (m, step)? = adder {
                let part = step.kindName == "addField" || field == nil ? "its `\(step.kindName)` step" : "'\(field ?? "")' from its `addRecordType` step"
                refused.append(Diagnostic(rule: StoreRules.productionForbidden,
                                          "\(what) is gone from the development schema, and production (\(production.source)) never had it: \(m.fileName) adds it and is not applied to production",
                                          at: step.location, fix: "take \(part) out of \(m.fileName) instead of deprecating it, \(rebuild)"))
            } else {
                refused.append(Diagnostic(rule: StoreRules.productionForbidden,
                                          "\(what) is gone from the development schema, and production (\(production.source)) never had it",
                                          at: nil, fix: "take it out of the migration that adds it instead of deprecating it, \(rebuild)"))
            }
            return true
        }

        mutating func add(_ kind: some MigrationStepKind) { steps.append(MigrationStep(kind)) }

        mutating func refuse(_ m: String, _ fix: String, _ origin: Origin) {
            refused.append(Diagnostic(rule: StoreRules.productionForbidden, m, at: origin.location, fix: fix))
        }

        mutating func zones(_ old: Schema, _ new: Schema) {
            for z in new.zones {
                guard let oz = old.zone(named: z.name) else { add(.addZone(z)); continue }
                if oz.database != z.database || oz.capabilities != z.capabilities {
                    refuse("zone '\(z.name)' changed its database or capabilities; a zone cannot be changed once created", "add a new zone instead", z.origin)
                }
            }
            for z in old.zones where new.zone(named: z.name) == nil {
                refuse("zone '\(z.name)' is gone from the development schema; migrations never delete a zone", "put the zone back in the schema", .unknown)
            }
        }

        mutating func roles(_ old: Schema, _ new: Schema) {
            let oldRoles = Set(old.roles.map(\.name))
            for r in new.roles where !oldRoles.contains(r.name) { add(.addRole(r.name)) }
            for r in old.roles where !new.roles.contains(where: { $0.name == r.name }) {
                refuse("role '\(r.name)' is gone from the development schema; migrations never delete a role", "put the role back in the schema", r.origin)
            }
        }

        /// A record type both schemas have: its place, its fields, system indexes, grants, deprecation.
        mutating func recordType(_ ot: RecordType, _ t: RecordType) {
            if ot.zone ?? Zone.defaultZoneName != t.zone ?? Zone.defaultZoneName || ot.database != t.database {
                refuse("record type '\(t.name)' moved to another zone or database; production never moves a deployed type", "add a new record type in the new zone", t.origin)
            }
            if ot.requiredCapabilities != t.requiredCapabilities {
                refuse("record type '\(t.name)' changed `requires`; no migration step changes it once the type exists",
                       "keep `requires` as the migrations have it, or add the capability to a new record type", t.origin)
            }
            for f in t.fields {
                if let of = ot.field(named: f.name) { field(of, f, in: t) } else {
                    var clean = f
                    clean.origin = .unknown
                    add(.addField(recordType: t.name, field: clean))
                }
            }
            for f in ot.fields where t.field(named: f.name) == nil {
                if neverInProduction(t.name, field: f.name) { continue }
                refuse("field '\(t.name).\(f.name)' is gone from the development schema; production never deletes a deployed field",
                       "put it back with `deprecated: true`", t.origin)
            }
            for sf in SystemField.allCases { indexes(ot.indexes(on: sf), t.indexes(on: sf), t.name, sf.rawValue) }
            if Set(ot.grants) != Set(t.grants) { add(.setGrants(recordType: t.name, grants: t.grants)) }
            if t.isDeprecated, !ot.isDeprecated { add(.deprecate(recordType: t.name, field: nil)) }
        }

        /// A field both have: its type and encryption never change; its indexes and deprecation may.
        mutating func field(_ of: Field, _ f: Field, in t: RecordType) {
            if of.type != f.type {
                refuse("field '\(t.name).\(f.name)' changed type (\(of.type) to \(f.type)); production never retypes a deployed field",
                       RetypeAdvice.fix(recordType: t.name, field: f.name, old: of, new: f), f.origin)
                return
            }
            if of.isEncrypted != f.isEncrypted {
                refuse("field '\(t.name).\(f.name)' \(f.isEncrypted ? "became" : "stopped being") encrypted; CloudKit allows encryption only on new fields",
                       EncryptionAdvice.fix(recordType: t.name, field: f.name, old: of, new: f)
                        ?? "keep '\(f.name)' as it is: CloudKit encrypts no reference", f.origin)
                return
            }
            indexes(of.indexes, f.indexes, t.name, f.name)
            if f.isDeprecated, !of.isDeprecated { add(.deprecate(recordType: t.name, field: f.name)) }
            if !f.isDeprecated, of.isDeprecated {
                refuse("field '\(t.name).\(f.name)' is no longer deprecated; there is no step to undo a deprecation", "keep `deprecated: true`", f.origin)
            }
        }

        mutating func indexes(_ a: IndexKinds, _ b: IndexKinds, _ type: String, _ field: String) {
            for k in b.subtracting(a) { add(.addIndex(recordType: type, field: field, kind: k)) }
            for k in a.subtracting(b) { add(.removeIndex(recordType: type, field: field, kind: k)) }
        }

        /// A changed subscription is removed and added again: CloudKit subscriptions cannot be modified in place.
        mutating func subscriptions(_ old: Schema, _ new: Schema) {
            for s in old.subscriptions where new.subscription(withID: s.id).map({ $0 != s }) ?? true { add(.removeSubscription(s.id)) }
            for s in new.subscriptions where old.subscription(withID: s.id).map({ $0 != s }) ?? true {
                var clean = s
                clean.origin = .unknown
                clean.predicateOrigin = .unknown
                add(.addSubscription(clean))
            }
        }
    }

    /// What production has, as `migrate new` knows it: the store's production when it holds
    /// a schema, else the production schema ckschema.yaml names.
    public struct Production: Sendable {
        public var schema: Schema
        /// Where it was read: the store's path, or the schema file's.
        public var source: String
        /// Production's migration history in the store (empty when read from a file).
        public var history: [AppliedMigration]

        public init(schema: Schema, source: String, history: [AppliedMigration] = []) {
            self.schema = schema
            self.source = source
            self.history = history
        }
    }

    /// The next migration file for `folder` named `name`, from the folder's replay to `development`.
    ///
    /// When `production` is known, the production rules (`PromotionPlan.production`, with the
    /// repository's `promote:` settings: what `promote` asks) come first, against production
    /// itself: a change the development schema makes to what production has, and a change a
    /// migration not yet in production makes, are refused with promote's code, words and fix
    /// (CK301-CK307), so `migrate new` never writes a step that `promote` or `migrate apply
    /// --env production` would refuse, nor contradicts them.
    /// Throws `InputError` when production would refuse a change (nothing is written then).
    /// Returns nil when there is nothing to migrate (replaying the folder already gives `development`).
    ///
    /// `renames` (`--rename Trip.rating:score`): `development` already has each rename made
    /// (`FieldRename.apply`); the migration copies the values into the new field right after
    /// adding it, and its description tells the app to read both fields until every client is
    /// updated.
    public static func newMigration(folder: MigrationFolder, name: String, development: Schema, production: Production? = nil,
                                    settings: RuleSettings = RuleSettings(),
                                    renames: [FieldRename] = []) throws(InputError) -> (path: String, text: String)? {
        let cleanName = name.replacingOccurrences(of: " ", with: "_")
        guard !cleanName.isEmpty, cleanName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw InputError(Diagnostic(rule: StoreRules.fileName, "'\(name)' is not a migration name; use letters, digits, '_' and '-'", at: nil))
        }
        if let production {
            let refused = ProductionGate.forbidden(from: production.schema, to: development, settings: settings)
            if !refused.isEmpty { throw InputError(refused) }
            let pending = try pendingFindings(folder: folder, production: production, settings: settings)
            if !pending.isEmpty { throw InputError(pending) }
        }
        let replayed = try folder.replay()
        var (steps, refused) = Self.steps(from: replayed, to: development, production: production, migrations: folder.migrations)
        if !refused.isEmpty { throw InputError(refused) }
        if steps.isEmpty { return nil }
        for rename in renames { steps = rename.withCopy(steps) }
        let version = (folder.migrations.last?.version ?? 0) + 1
        let fileName = String(format: "%04d", version) + "_\(cleanName).yaml"
        let description = renames.isEmpty ? nil : renames.map { "rename \($0.label). \($0.advice)" }.joined(separator: " ")
        return ((folder.path as NSString).appendingPathComponent(fileName), MigrationWriter.yaml(steps: steps, description: description))
    }

    /// The forbidden changes the migrations production has not yet applied make to what it
    /// has, each at the migration step that makes it: what `migrate apply --env production`
    /// would refuse. With a store, the migrations after production's history; from a file,
    /// those after the longest prefix of the folder that builds it (all of them when none does).
    static func pendingFindings(folder: MigrationFolder, production: Production, settings: RuleSettings) throws(InputError) -> [Diagnostic] {
        let replays = try folder.replays()
        let fix = { (m: Migration) in
            "\(m.fileName) is not applied to production (\(production.source)) and makes a change production refuses: delete it (if the development store has applied it, rebuild that store too: docs/migrations.md, \"When a migration is wrong\"), run `ckschema migrate hash`, then `ckschema migrate new` again"
        }
        let after: Int
        if let last = production.history.last?.version {
            after = last
        } else {
            let wanted = production.schema.storeNormalized
            guard let prefix = replays.indices.last(where: { replays[$0].storeNormalized == wanted }) else {
                // No prefix of the folder is production: only where the folder ends can be
                // held to it, each change at the last migration that touches its record type.
                guard let final = replays.last else { return [] }
                let plan = PromotionPlan.production(from: production.schema.storeNormalized, to: final.storeNormalized, settings: settings)
                return plan.steps.filter { $0.changeClass == .forbidden }.map { step in
                    let m = folder.migrations.last { $0.steps.contains { $0.recordTypeName == step.change.recordType } } ?? folder.migrations[folder.migrations.count - 1]
                    var d = ProductionGate.diagnostic(step, in: m)
                    d.fix = fix(m)
                    return d
                }
            }
            after = folder.migrations[prefix].version
        }
        var schema = production.schema
        var found: [Diagnostic] = [], seen: Set<String> = []
        for (i, m) in folder.migrations.enumerated() where m.version > after {
            // From the store's production where the store has a history; from a file, the
            // folder's own replay after the prefix that builds production.
            if production.history.isEmpty { schema = replays[i] } else { try SchemaChanger.apply(m, to: &schema) }
            for var d in ProductionGate.check(from: production.schema, to: schema, migration: m, settings: settings).forbidden {
                // A change stays in every later replay: report it at the first migration that makes it.
                guard seen.insert(String(d.message.dropFirst(m.fileName.count + 2))).inserted else { continue }
                d.fix = fix(m)
                found.append(d)
            }
        }
        return found
    }
}

/// Writes migration steps as the YAML of `docs/migrations.md`.
public enum MigrationWriter {
    /// The text of a migration file.
    public static func yaml(steps: [MigrationStep], description: String?) -> String {
        var out = ""
        if let description { out += "description: \(quote(description))\n" }
        out += "steps:\n"
        for s in steps { out += step(s) }
        return out
    }

    /// As the schema emitter writes a scalar: plain when it reads back the same, else
    /// double-quoted with control characters and YAML line breaks escaped.
    static func quote(_ s: String) -> String { SchemaEmitter.scalar(s, inFlow: true) }

    static func fieldSpec(_ f: Field) -> String {
        var parts = ["type: \(quote(f.type.description))"]
        if f.isEncrypted { parts.append("encrypted: true") }
        if !f.indexes.isEmpty { parts.append("indexes: [" + f.indexes.kinds.map(\.rawValue).joined(separator: ", ") + "]") }
        if f.isDeprecated { parts.append("deprecated: true") }
        if let r = f.referenceTarget { parts.append("to: \(quote(r))") }
        if let a = f.referenceAction { parts.append("action: \(a.rawValue)") }
        if let d = f.description { parts.append("description: \(quote(d))") }
        return parts.joined(separator: ", ")
    }

    static func grants(_ g: [Grant], indent: String) -> String {
        g.map { "\(indent)\(quote($0.role)): [" + $0.sortedPermissions.map(\.rawValue).joined(separator: ", ") + "]\n" }.joined()
    }

    static func step(_ s: MigrationStep) -> String { "  - \(s.kindName):" + s.action.yaml }
}
