import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// What a step needs while it is applied to a schema: where it is written, whether
/// just-in-time fields may be adopted, and the lookups every step shares, each failing with
/// the step's name and location.
struct StepContext {
    /// The step's key, which opens every message (`addField: ...`).
    let kind: String
    let location: SourceLocation
    /// A store's development schema may already hold a field CloudKit's just-in-time schema
    /// added (`records import`); an `addField` of the same type and encryption adopts it.
    let adoptingFields: Bool

    func fail(_ rule: RuleInfo, _ message: String, fix: String? = nil) -> InputError {
        InputError(.error(rule, "\(kind): \(message)", at: location, fix: fix))
    }

    /// A CloudKit rule broken by the step: the rule's own code, as lint reports it.
    func fail(_ v: CloudKitViolation) -> InputError {
        InputError(Diagnostic(rule: v.rule.info, "\(kind): \(v.message)", at: location, fix: v.fix))
    }

    /// A data step's SQL could not be built (a value that does not fit the field, a lossy copy).
    func fail(_ e: DataStepError) -> InputError { fail(e.rule, e.message, fix: e.fix) }

    func typeIndex(_ name: String, in schema: Schema) throws(InputError) -> Int {
        guard let i = schema.recordTypes.firstIndex(where: { $0.name == name }) else {
            throw fail(StoreRules.badTarget, "record type '\(name)' does not exist at this point of the history\(Suggest.phrase(for: name, in: schema.recordTypes.map(\.name)))",
                       fix: "add it first with `addRecordType`, or check the name")
        }
        return i
    }

    func fieldIndex(_ t: Int, _ name: String, in schema: Schema) throws(InputError) -> Int {
        let type = schema.recordTypes[t]
        guard let i = type.fields.firstIndex(where: { $0.name == name }) else {
            throw fail(StoreRules.badTarget, "'\(type.name)' has no field '\(name)'\(Suggest.phrase(for: name, in: type.fields.map(\.name)))",
                       fix: "add it first with `addField`, or check the name")
        }
        return i
    }

    /// The field `name` of record type `type`, both required to exist.
    func field(_ name: String, of type: String, in schema: Schema) throws(InputError) -> (type: Int, field: Field) {
        let t = try typeIndex(type, in: schema)
        return (t, schema.recordTypes[t].fields[try fieldIndex(t, name, in: schema)])
    }

    func checkRoles(_ grants: [Grant], in schema: Schema) throws(InputError) {
        for g in grants where !schema.knownRoles.contains(g.role) {
            throw fail(StoreRules.badTarget, "role '\(g.role)' does not exist\(Suggest.phrase(for: g.role, in: schema.knownRoles))",
                       fix: "add it first with `addRole`, or use _world, _icloud or _creator")
        }
    }

    func checkZone(_ zone: String?, in schema: Schema) throws(InputError) {
        guard let z = zone, z != Zone.defaultZoneName, schema.zone(named: z) == nil else { return }
        throw fail(StoreRules.badTarget, "zone '\(z)' does not exist\(Suggest.phrase(for: z, in: schema.zones.map(\.name)))", fix: "add it first with `addZone`")
    }

    /// The first CloudKit rule `field` breaks as declared on `t`, nil when CloudKit accepts
    /// it. The rules are `CloudKitRules`', the same lint applies to schema files.
    func check(_ f: Field, in t: RecordType, schema: Schema) throws(InputError) {
        if let v = CloudKitRules.fieldViolations(f, in: t, database: schema.database(of: t), notation: .yaml).first { throw fail(v) }
    }
}
