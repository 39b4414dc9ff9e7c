/// Applies migration steps to a `Schema`, checking each against the schema it meets and
/// against what CloudKit allows. Replay (`MigrationFolder.replay`) and `Migrator` share it.
enum SchemaChanger {
    /// Applies every step of `migration`; throws `InputError` at the first step that cannot apply.
    ///
    /// `adoptingFields`: a store's development schema may already hold a field that CloudKit's
    /// just-in-time schema added (`records import`); an `addField` with the same type and
    /// encryption then adopts it instead of failing. Replay never adopts.
    static func apply(_ migration: Migration, to schema: inout Schema, adoptingFields: Bool = false) throws(InputError) {
        for step in migration.steps {
            try apply(step, to: &schema, file: migration.path, adoptingFields: adoptingFields)
        }
    }

    static func apply(_ step: MigrationStep, to schema: inout Schema, file: String, adoptingFields: Bool = false) throws(InputError) {
        let at = step.location ?? SourceLocation(file: file, line: 1, column: 1)
        func fail(_ rule: RuleInfo, _ message: String, fix: String? = nil) -> InputError {
            InputError(.error(rule.code, "\(step.kindName): \(message)", at: at, fix: fix))
        }
        /// A CloudKit rule broken by the step: the rule's own code, as lint reports it.
        func fail(_ v: CloudKitViolation) -> InputError {
            InputError(.error(v.rule.code, "\(step.kindName): \(v.message)", at: at, fix: v.fix))
        }
        func typeIndex(_ name: String) throws(InputError) -> Int {
            guard let i = schema.recordTypes.firstIndex(where: { $0.name == name }) else {
                throw fail(StoreRules.badTarget, "record type '\(name)' does not exist at this point of the history\(Suggest.phrase(for: name, in: schema.recordTypes.map(\.name)))",
                           fix: "add it first with `addRecordType`, or check the name")
            }
            return i
        }
        func fieldIndex(_ t: Int, _ name: String) throws(InputError) -> Int {
            guard let i = schema.recordTypes[t].fields.firstIndex(where: { $0.name == name }) else {
                let type = schema.recordTypes[t]
                throw fail(StoreRules.badTarget, "'\(type.name)' has no field '\(name)'\(Suggest.phrase(for: name, in: type.fields.map(\.name)))",
                           fix: "add it first with `addField`, or check the name")
            }
            return i
        }
        func checkRoles(_ grants: [Grant]) throws(InputError) {
            for g in grants where !schema.knownRoles.contains(g.role) {
                throw fail(StoreRules.badTarget, "role '\(g.role)' does not exist\(Suggest.phrase(for: g.role, in: schema.knownRoles))",
                           fix: "add it first with `addRole`, or use _world, _icloud or _creator")
            }
        }

        switch step.action {
        case .addZone(let z):
            guard schema.zone(named: z.name) == nil, z.name != Zone.defaultZoneName else { throw fail(StoreRules.badTarget, "zone '\(z.name)' already exists") }
            // Source: CKRecordZone: "You can create custom zones only in a private database."
            if z.database != .private {
                throw fail(StoreRules.notAllowed, "zone '\(z.name)' is in the \(z.database.rawValue) database; custom zones exist only in the private database",
                           fix: "use `database: private`")
            }
            schema.zones.append(z)
        case .addRole(let r):
            guard !schema.knownRoles.contains(r) else { throw fail(StoreRules.badTarget, "role '\(r)' already exists") }
            schema.roles.append(Role(name: r))
        case .addRecordType(let t):
            guard schema.recordType(named: t.name) == nil else {
                throw fail(StoreRules.badTarget, "record type '\(t.name)' already exists", fix: "use `addField` to add fields to it")
            }
            if let z = t.zone, z != Zone.defaultZoneName, schema.zone(named: z) == nil {
                throw fail(StoreRules.badTarget, "zone '\(z)' does not exist\(Suggest.phrase(for: z, in: schema.zones.map(\.name)))", fix: "add it first with `addZone`")
            }
            if let v = CloudKitRules.recordTypeNameViolation(t.name) { throw fail(v) }
            try checkRoles(t.grants)
            var seen = Set<String>()
            for f in t.fields {
                guard seen.insert(f.name).inserted else { throw fail(StoreRules.badTarget, "field '\(f.name)' appears twice in '\(t.name)'") }
                if let v = problem(with: f, in: t, schema: schema) { throw fail(v) }
            }
            schema.recordTypes.append(t)
        case .addField(let tn, let f):
            let t = try typeIndex(tn)
            if adoptingFields, let i = schema.recordTypes[t].fields.firstIndex(where: { $0.name == f.name }),
               schema.recordTypes[t].fields[i].type == f.type, schema.recordTypes[t].fields[i].isEncrypted == f.isEncrypted {
                if let v = problem(with: f, in: schema.recordTypes[t], schema: schema) { throw fail(v) }
                schema.recordTypes[t].fields[i] = f
                return
            }
            if schema.recordTypes[t].field(named: f.name) != nil {
                throw fail(StoreRules.badTarget, "'\(tn)' already has a field '\(f.name)'", fix: "a field's type cannot change; add a field with a new name and `copy` into it")
            }
            if let v = problem(with: f, in: schema.recordTypes[t], schema: schema) { throw fail(v) }
            schema.recordTypes[t].fields.append(f)
        case .addIndex(let tn, let fn, let kind), .removeIndex(let tn, let fn, let kind):
            var adding = false
            if case .addIndex = step.action { adding = true }
            let t = try typeIndex(tn)
            if let sf = SystemField(rawValue: fn) {
                var set = schema.recordTypes[t].indexes(on: sf)
                if adding {
                    guard !set.contains(kind) else { throw fail(StoreRules.badTarget, "\(tn).\(fn) is already \(kind.rawValue)") }
                    set.insert(kind)
                    if let v = CloudKitRules.systemIndexViolation(sf, set, in: schema.recordTypes[t], notation: .yaml) { throw fail(v) }
                } else {
                    guard set.contains(kind) else { throw fail(StoreRules.badTarget, "\(tn).\(fn) is not \(kind.rawValue)") }
                    set.remove(kind)
                }
                schema.recordTypes[t].systemIndexes[sf] = set.isEmpty ? nil : set
            } else {
                let i = try fieldIndex(t, fn)
                var f = schema.recordTypes[t].fields[i]
                if adding {
                    guard !f.indexes.contains(kind) else { throw fail(StoreRules.badTarget, "\(tn).\(fn) is already \(kind.rawValue)") }
                    f.indexes.insert(kind)
                    if let v = problem(with: f, in: schema.recordTypes[t], schema: schema) { throw fail(v) }
                } else {
                    guard f.indexes.contains(kind) else { throw fail(StoreRules.badTarget, "\(tn).\(fn) is not \(kind.rawValue)") }
                    f.indexes.remove(kind)
                }
                schema.recordTypes[t].fields[i] = f
            }
        case .deprecate(let tn, let fn):
            let t = try typeIndex(tn)
            if let fn {
                let i = try fieldIndex(t, fn)
                schema.recordTypes[t].fields[i].isDeprecated = true
            } else {
                schema.recordTypes[t].isDeprecated = true
            }
        case .setGrants(let tn, let grants):
            let t = try typeIndex(tn)
            try checkRoles(grants)
            schema.recordTypes[t].grants = grants
        case .removeField(let tn, let fn):
            // In production the removal is refused by `ProductionGate` with promote's rule
            // (CK302), its words and its fix; here it is only applied to the model.
            let t = try typeIndex(tn)
            schema.recordTypes[t].fields.remove(at: try fieldIndex(t, fn))
        case .addSubscription(let s):
            guard schema.subscription(withID: s.id) == nil else {
                throw fail(StoreRules.badTarget, "subscription '\(s.id)' already exists", fix: "remove it first with `removeSubscription`, or use another ID")
            }
            if let tn = s.recordType { _ = try typeIndex(tn) }
            if let z = s.zone, z != Zone.defaultZoneName, schema.zone(named: z) == nil {
                throw fail(StoreRules.badTarget, "zone '\(z)' does not exist\(Suggest.phrase(for: z, in: schema.zones.map(\.name)))", fix: "add it first with `addZone`")
            }
            // The store evaluates the predicate on every save: it must be one CloudKit accepts on this type.
            if s.kind == .query, let t = s.recordType.flatMap(schema.recordType(named:)) {
                do {
                    let p = try PredicateParser.parse(s.predicate ?? "TRUEPREDICATE")
                    if let e = PredicateChecker.check(p, on: t, needIndexes: false).first {
                        throw fail(StoreRules.invalidStep, "the predicate of '\(s.id)': \(e.message) [\(e.rule.code)]", fix: e.fix)
                    }
                } catch let e as PredicateError {
                    throw fail(StoreRules.invalidStep, "the predicate of '\(s.id)': \(e.message) [\(e.rule.code)]", fix: e.fix)
                } catch let e as InputError { throw e } catch { throw fail(StoreRules.invalidStep, "\(error)") }
            }
            schema.subscriptions.append(s)
        case .removeSubscription(let id):
            guard let i = schema.subscriptions.firstIndex(where: { $0.id == id }) else {
                throw fail(StoreRules.badTarget, "subscription '\(id)' does not exist\(Suggest.phrase(for: id, in: schema.subscriptions.map(\.id)))")
            }
            schema.subscriptions.remove(at: i)
        case .removeRecordType(let tn):
            schema.recordTypes.remove(at: try typeIndex(tn))
        case .backfill(let tn, let fn, let value, _):
            let t = try typeIndex(tn)
            let f = schema.recordTypes[t].fields[try fieldIndex(t, fn)]
            do throws(DataStepError) { _ = try DataStepSQL.backfillValueSQL(value, field: f, recordType: schema.recordTypes[t]) } catch {
                throw fail(error.rule, error.message, fix: error.fix)
            }
        case .copy(let tn, let from, let to):
            let t = try typeIndex(tn)
            let a = schema.recordTypes[t].fields[try fieldIndex(t, from)]
            let b = schema.recordTypes[t].fields[try fieldIndex(t, to)]
            do throws(DataStepError) { _ = try DataStepSQL.conversionSQL(from: a, to: b) } catch {
                throw fail(error.rule, error.message, fix: error.fix)
            }
        }
    }

    /// The first CloudKit rule `field` breaks as declared on `t`, nil when CloudKit accepts
    /// it. The rules are `CloudKitRules`', the same lint applies to schema files.
    static func problem(with f: Field, in t: RecordType, schema: Schema) -> CloudKitViolation? {
        CloudKitRules.fieldViolations(f, in: t, database: schema.database(of: t), notation: .yaml).first
    }
}
