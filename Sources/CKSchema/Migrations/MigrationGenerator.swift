import Foundation

/// `migrate new`: the steps that take the schema the migrations produce to the development
/// schema, refusing the changes production would refuse (with what to do instead).
public enum MigrationGenerator {
    /// The steps from `old` to `new`, and the changes no allowed step can make.
    public static func steps(from old: Schema, to new: Schema) -> (steps: [MigrationStep], refused: [Diagnostic]) {
        var steps: [MigrationStep] = []
        var refused: [Diagnostic] = []
        func refuse(_ m: String, _ fix: String, _ origin: Origin) {
            refused.append(.error(StoreRules.productionForbidden.code, m, at: origin.location, fix: fix))
        }
        for z in new.zones {
            if let oz = old.zone(named: z.name) {
                if oz.database != z.database || oz.capabilities != z.capabilities {
                    refuse("zone '\(z.name)' changed its database or capabilities; a zone cannot be changed once created", "add a new zone instead", z.origin)
                }
            } else { steps.append(MigrationStep(.addZone(z))) }
        }
        for z in old.zones where new.zone(named: z.name) == nil {
            refuse("zone '\(z.name)' is gone from the development schema; migrations never delete a zone", "put the zone back in the schema", .unknown)
        }
        let oldRoles = Set(old.roles.map(\.name))
        for r in new.roles where !oldRoles.contains(r.name) { steps.append(MigrationStep(.addRole(r.name))) }
        for r in old.roles where !new.roles.contains(where: { $0.name == r.name }) {
            refuse("role '\(r.name)' is gone from the development schema; migrations never delete a role", "put the role back in the schema", r.origin)
        }
        for t in new.recordTypes {
            guard let ot = old.recordType(named: t.name) else {
                var clean = t
                clean.origin = .unknown
                steps.append(MigrationStep(.addRecordType(clean)))
                continue
            }
            if ot.zone ?? Zone.defaultZoneName != t.zone ?? Zone.defaultZoneName || ot.database != t.database {
                refuse("record type '\(t.name)' moved to another zone or database; production never moves a deployed type", "add a new record type in the new zone", t.origin)
            }
            if ot.requiredCapabilities != t.requiredCapabilities {
                refuse("record type '\(t.name)' changed `requires`; no migration step changes it once the type exists",
                       "keep `requires` as the migrations have it, or add the capability to a new record type", t.origin)
            }
            for f in t.fields {
                guard let of = ot.field(named: f.name) else {
                    var clean = f
                    clean.origin = .unknown
                    steps.append(MigrationStep(.addField(recordType: t.name, field: clean)))
                    continue
                }
                if of.type != f.type {
                    refuse("field '\(t.name).\(f.name)' changed type (\(of.type) to \(f.type)); production never retypes a deployed field",
                           "keep '\(f.name)' as \(of.type), add a new field of type \(f.type), and `copy` or `backfill` into it", f.origin)
                    continue
                }
                if of.isEncrypted != f.isEncrypted {
                    refuse("field '\(t.name).\(f.name)' \(f.isEncrypted ? "became" : "stopped being") encrypted; CloudKit allows encryption only on new fields",
                           "add a new \(f.isEncrypted ? "encrypted" : "plaintext") field and copy into it", f.origin)
                    continue
                }
                for k in f.indexes.subtracting(of.indexes) { steps.append(MigrationStep(.addIndex(recordType: t.name, field: f.name, kind: k))) }
                for k in of.indexes.subtracting(f.indexes) { steps.append(MigrationStep(.removeIndex(recordType: t.name, field: f.name, kind: k))) }
                if f.isDeprecated, !of.isDeprecated { steps.append(MigrationStep(.deprecate(recordType: t.name, field: f.name))) }
                if !f.isDeprecated, of.isDeprecated {
                    refuse("field '\(t.name).\(f.name)' is no longer deprecated; there is no step to undo a deprecation", "keep `deprecated: true`", f.origin)
                }
            }
            for f in ot.fields where t.field(named: f.name) == nil {
                refuse("field '\(t.name).\(f.name)' is gone from the development schema; production never deletes a deployed field",
                       "put it back with `deprecated: true`", t.origin)
            }
            for sf in SystemField.allCases {
                let a = ot.indexes(on: sf), b = t.indexes(on: sf)
                for k in b.subtracting(a) { steps.append(MigrationStep(.addIndex(recordType: t.name, field: sf.rawValue, kind: k))) }
                for k in a.subtracting(b) { steps.append(MigrationStep(.removeIndex(recordType: t.name, field: sf.rawValue, kind: k))) }
            }
            if Set(ot.grants) != Set(t.grants) { steps.append(MigrationStep(.setGrants(recordType: t.name, grants: t.grants))) }
            if t.isDeprecated, !ot.isDeprecated { steps.append(MigrationStep(.deprecate(recordType: t.name, field: nil))) }
        }
        // A changed subscription is removed and added again: CloudKit subscriptions cannot be modified in place.
        for s in old.subscriptions where new.subscription(withID: s.id).map({ $0 != s }) ?? true {
            steps.append(MigrationStep(.removeSubscription(s.id)))
        }
        for s in new.subscriptions where old.subscription(withID: s.id).map({ $0 != s }) ?? true {
            var clean = s
            clean.origin = .unknown
            clean.predicateOrigin = .unknown
            steps.append(MigrationStep(.addSubscription(clean)))
        }
        for t in old.recordTypes where new.recordType(named: t.name) == nil {
            refuse("record type '\(t.name)' is gone from the development schema; production never deletes a deployed record type",
                   "put it back with `deprecated: true`", .unknown)
        }
        return (steps, refused)
    }

    /// The next migration file for `folder` named `name`, from the folder's replay to `development`.
    /// Throws `InputError` when production would refuse a change (nothing is written then) or when
    /// there is nothing to migrate.
    /// Returns nil when there is nothing to migrate (replaying the folder already gives `development`).
    public static func newMigration(folder: MigrationFolder, name: String, development: Schema) throws(InputError) -> (path: String, text: String)? {
        let cleanName = name.replacingOccurrences(of: " ", with: "_")
        guard !cleanName.isEmpty, cleanName.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw InputError(.error(StoreRules.fileName.code, "'\(name)' is not a migration name; use letters, digits, '_' and '-'", at: nil))
        }
        let replayed = try folder.replay()
        let (steps, refused) = Self.steps(from: replayed, to: development)
        if !refused.isEmpty { throw InputError(refused) }
        if steps.isEmpty { return nil }
        let version = (folder.migrations.last?.version ?? 0) + 1
        let fileName = String(format: "%04d", version) + "_\(cleanName).yaml"
        return ((folder.path as NSString).appendingPathComponent(fileName), MigrationWriter.yaml(steps: steps, description: nil))
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
