import CKSchemaModel

/// What a `.ckdb` file can hold of a schema: the one answer `verify` (what cktool's export
/// shows), the store's production against a `.ckdb` production (CK536, promote's stale check
/// CK534, `migrate status`, `check`) and `migrate baseline` (what it carries from the
/// development schema) all ask.
///
/// The CloudKit Schema Language has record types, their fields with types, indexes and
/// encryption, grants and roles. It cannot say the container, zones, declared queries,
/// subscriptions, a record type's zone, database, required zone capabilities, description or
/// deprecation, nor a field's description, deprecation (cktool's export drops the
/// `// DEPRECATED` comment) or reference target and action; and cktool refuses an index on an
/// encrypted field. `CKDBExporter` leaves exactly these out (CK220, CK221).
/// Source: Apple, "Integrating a Text-Based Schema into Your Workflow" (the language's grammar).
public enum CKDBExpressible {
    /// `schema` as a `.ckdb` export of it would read back: `CKDBExporter.cktoolForm` (cktool's
    /// default `Users` when it has none, fields and grants in cktool's order) without what the
    /// language cannot say. Two schemas with the same form are the same to cktool.
    public static func form(_ schema: Schema) -> Schema {
        var s = CKDBExporter.cktoolForm(schema)
        s.container = nil
        s.zones = []
        s.queries = []
        s.subscriptions = []
        for i in s.recordTypes.indices {
            s.recordTypes[i].zone = nil
            s.recordTypes[i].database = nil
            s.recordTypes[i].description = nil
            s.recordTypes[i].isDeprecated = false
            s.recordTypes[i].requiredCapabilities = []
            for j in s.recordTypes[i].fields.indices {
                s.recordTypes[i].fields[j].description = nil
                s.recordTypes[i].fields[j].isDeprecated = false
                s.recordTypes[i].fields[j].referenceTarget = nil
                s.recordTypes[i].fields[j].referenceAction = nil
                if s.recordTypes[i].fields[j].isEncrypted { s.recordTypes[i].fields[j].indexes = IndexKinds() }
            }
        }
        return s
    }

    /// `ckdb` (a schema read from a `.ckdb`) with what the language cannot say carried from
    /// `other` (the development schema, or the store's): the container, the zones its record
    /// types are in, and of each record type and field `other` also has, its zone, database,
    /// required capabilities, description, deprecation and reference target and action.
    /// What `ckdb` holds (types, fields, indexes, encryption, grants, roles) is kept as it is,
    /// but for cktool's default `Users` (which every container has, and every export lists)
    /// when `other` does not list `Users`: a schema that omits it does not describe it.
    public static func carrying(_ ckdb: Schema, from other: Schema) -> Schema {
        var s = ckdb
        if other.recordType(named: "Users") == nil, let i = s.recordTypes.firstIndex(where: { $0.name == "Users" }) {
            var without = s
            without.recordTypes.remove(at: i)
            if let listed = form(s).recordType(named: "Users"), let implied = form(without).recordType(named: "Users"), same(listed, implied) { s = without }
        }
        s.container = s.container ?? other.container
        for i in s.recordTypes.indices {
            guard let before = other.recordType(named: s.recordTypes[i].name) else { continue }
            s.recordTypes[i].zone = s.recordTypes[i].zone ?? before.zone
            s.recordTypes[i].database = s.recordTypes[i].database ?? before.database
            s.recordTypes[i].description = s.recordTypes[i].description ?? before.description
            s.recordTypes[i].isDeprecated = s.recordTypes[i].isDeprecated || before.isDeprecated
            s.recordTypes[i].requiredCapabilities.formUnion(before.requiredCapabilities)
            for j in s.recordTypes[i].fields.indices {
                guard let f = before.field(named: s.recordTypes[i].fields[j].name), f.type == s.recordTypes[i].fields[j].type else { continue }
                s.recordTypes[i].fields[j].description = s.recordTypes[i].fields[j].description ?? f.description
                s.recordTypes[i].fields[j].isDeprecated = s.recordTypes[i].fields[j].isDeprecated || f.isDeprecated
                s.recordTypes[i].fields[j].referenceTarget = s.recordTypes[i].fields[j].referenceTarget ?? f.referenceTarget
                s.recordTypes[i].fields[j].referenceAction = s.recordTypes[i].fields[j].referenceAction ?? f.referenceAction
            }
        }
        let used = Set(s.recordTypes.compactMap(\.zone))
        for zone in other.zones where used.contains(zone.name) && s.zone(named: zone.name) == nil { s.zones.append(zone) }
        return s
    }

    /// The same record type to cktool: fields, system-field indexes and grants, in any order.
    static func same(_ a: RecordType, _ b: RecordType) -> Bool {
        let mergedGrants = CKDBExporter.mergedByRole
        func key(_ t: RecordType) -> RecordType {
            var t = t
            t.fields.sort { $0.name < $1.name }
            t.systemIndexes = t.systemIndexes.filter { !$0.value.isEmpty }
            t.grants = mergedGrants(t.grants)
            return t
        }
        return key(a) == key(b)
    }
}
