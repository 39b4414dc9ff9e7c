import Foundation
import CKSchemaCKDB
import CKSchemaCoreData
import CKSchemaModel
import CKSchemaYAML

/// The structural difference between two schemas (production -> development, usually),
/// change by change, in a stable order grouped by record type.
///
/// Order: container-level changes (container, zones, roles) first, then record types by
/// name; within a record type: the type itself, its system-field indexes, its fields by
/// name, its grants by role, then the declared queries on it. Every element is matched
/// by name through dictionaries, so the cost is linear in the size of the schemas.
///
/// A property that one side does not state is not a change: a `.ckdb` file carries no
/// zones of record types, descriptions or reference targets, a schema with no grants
/// on a record type says nothing of its grants, and a schema that omits a system record
/// type (`Users`, `cloudkit.share`) says nothing of it (CloudKit always has them).
public struct SchemaDiff: Sendable, Hashable, Codable {
    /// The changes, in the stable order described above.
    public var changes: [SchemaChange]

    /// Wraps a list of changes that is already in order.
    public init(changes: [SchemaChange]) { self.changes = changes }

    /// True when the two schemas are the same.
    public var isEmpty: Bool { changes.isEmpty }

    /// The changes grouped by record type (nil: container-level), in order.
    public var groups: [(recordType: String?, changes: [SchemaChange])] {
        var out: [(recordType: String?, changes: [SchemaChange])] = []
        for change in changes {
            if let last = out.last, last.recordType == change.recordType {
                out[out.count - 1].changes.append(change)
            } else {
                out.append((change.recordType, [change]))
            }
        }
        return out
    }

    /// The review text `ckschema diff` prints: a heading per group, one line per change.
    /// Empty when there is no change.
    public var text: String {
        var lines: [String] = []
        for group in groups {
            if !lines.isEmpty { lines.append("") }
            lines.append(group.recordType.map { "record type \($0)" } ?? "container")
            for change in group.changes { lines.append("  " + change.description) }
        }
        // Names come from schema files: escaped line by line, so none can start a line of its own.
        return lines.isEmpty ? "" : lines.map { ControlCharacters.escaped($0) }.joined(separator: "\n") + "\n"
    }

    /// Computes the changes that turn `from` into `to`.
    public static func compute(from: Schema, to: Schema) -> SchemaDiff {
        var out: [SchemaChange] = []
        diffContainer(from, to, into: &out)

        let fromTypes = Dictionary(from.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let toTypes = Dictionary(to.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let fromQueries = Dictionary(grouping: from.queries, by: \.recordType)
        let toQueries = Dictionary(grouping: to.queries, by: \.recordType)

        var names = Set(fromTypes.keys).union(toTypes.keys)
        names.formUnion(fromQueries.keys)
        names.formUnion(toQueries.keys)
        for name in names.sorted() {
            let a = fromTypes[name], b = toTypes[name]
            switch (a, b) {
            case let (nil, b?) where CloudKitRules.alwaysPresentSystemTypes.contains(b.name):
                // Every container has `Users`: a side that omits it leaves it unstated, not
                // new; compare with what every container has. Its system indexes are unstated
                // too: cktool's default Users has `___recordID` QUERYABLE in containers in use
                // and not in Apple's empty-container sample, so neither is a change.
                var implicit = implicitSystemType(b.name)
                implicit.systemIndexes = b.systemIndexes
                diffType(implicit, b, into: &out)
            case (_?, nil) where CloudKitRules.systemRecordTypes.contains(name):
                // CloudKit creates and keeps its system types itself: a source that does not
                // mention one does not describe it, and never deletes it.
                break
            case let (nil, b?): diffAddedType(b, into: &out)
            case let (a?, nil) where to.isPartial:
                // A partial source (a Core Data model) describes only its own types: a CD_
                // type it no longer has stays in production; other types are not its business.
                if CoreDataMapping.isMirrored(name) {
                    out.append(SchemaChange(.notDescribedRecordType, recordType: name, before: placement(a), origin: a.origin, fromOrigin: a.origin))
                }
            case let (a?, nil):
                out.append(SchemaChange(.removeRecordType, recordType: name, before: placement(a), origin: a.origin, fromOrigin: a.origin))
            case let (a?, b?) where a != b:
                // A model says nothing about indexes: which ones a CD_ type's fields get
                // depends on how development was built (saving records indexes every field,
                // initializeCloudKitSchema none), so they come from the other side.
                let modelIndexes = (from.isPartial || to.isPartial) && CoreDataMapping.isMirrored(name)
                diffType(a, b, partial: to.isPartial, indexesUnstated: modelIndexes, into: &out)
            default: break
            }
            diffQueries(fromQueries[name] ?? [], toQueries[name] ?? [], into: &out)
        }
        diffSubscriptions(from, to, into: &out)
        return SchemaDiff(changes: out)
    }

    /// Subscriptions by ID: added, removed, or changed (shown as their canonical YAML values).
    private static func diffSubscriptions(_ from: Schema, _ to: Schema, into out: inout [SchemaChange]) {
        for s in from.subscriptions {
            guard let t = to.subscription(withID: s.id) else {
                var c = SchemaChange(.removeSubscription, before: SchemaEmitter.subscriptionValue(s), origin: s.origin, fromOrigin: s.origin)
                c.subscription = s.id
                out.append(c)
                continue
            }
            if t != s {
                var c = SchemaChange(.changeSubscription, before: SchemaEmitter.subscriptionValue(s), after: SchemaEmitter.subscriptionValue(t),
                                     origin: t.origin, fromOrigin: s.origin)
                c.subscription = s.id
                out.append(c)
            }
        }
        for t in to.subscriptions where from.subscription(withID: t.id) == nil {
            var c = SchemaChange(.addSubscription, after: SchemaEmitter.subscriptionValue(t), origin: t.origin)
            c.subscription = t.id
            out.append(c)
        }
    }

    // MARK: - Container, zones, roles

    private static func diffContainer(_ from: Schema, _ to: Schema, into out: inout [SchemaChange]) {
        if let a = from.container, let b = to.container, a != b {
            out.append(SchemaChange(.changeContainer, before: a, after: b, origin: to.origin, fromOrigin: from.origin))
        }
        // A Core Data model names the zone mirroring creates at run time; a `.ckdb` export
        // names no zone at all (zones are not part of the schema cktool exports).
        let zonesUnstated = (from.isPartial && to.zones.isEmpty) || (to.isPartial && from.zones.isEmpty)
        let fromZones = zonesUnstated ? [:] : Dictionary(from.zones.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let toZones = zonesUnstated ? [:] : Dictionary(to.zones.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(fromZones.keys).union(toZones.keys).sorted() {
            switch (fromZones[name], toZones[name]) {
            case let (nil, b?):
                out.append(SchemaChange(.addZone, zone: name, after: zoneText(b), origin: b.origin))
            case let (a?, nil):
                out.append(SchemaChange(.removeZone, zone: name, before: zoneText(a), origin: a.origin, fromOrigin: a.origin))
            case let (a?, b?) where a != b:
                if a.database != b.database {
                    out.append(SchemaChange(.changeZoneDatabase, zone: name, before: a.database.rawValue, after: b.database.rawValue, origin: b.origin, fromOrigin: a.origin))
                }
                for cap in ZoneCapability.allCases where a.capabilities.contains(cap) != b.capabilities.contains(cap) {
                    let added = b.capabilities.contains(cap)
                    out.append(SchemaChange(added ? .addZoneCapability : .removeZoneCapability, zone: name, capability: cap, origin: b.origin, fromOrigin: a.origin))
                }
            default: break
            }
        }
        let fromRoles = Dictionary(from.roles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let toRoles = Dictionary(to.roles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in Set(fromRoles.keys).union(toRoles.keys).sorted() {
            switch (fromRoles[name], toRoles[name]) {
            case let (nil, b?): out.append(SchemaChange(.addRole, role: name, origin: b.origin))
            case (_?, nil) where to.isPartial:
                // A partial source (a Core Data model, SwiftData sources) cannot declare roles:
                // a role production has is not its business, as its other types are not (a
                // public catalogue's `moderator` beside the mirrored CD_ types; robbiet480/Dispatch).
                break
            case let (a?, nil): out.append(SchemaChange(.removeRole, role: name, origin: a.origin, fromOrigin: a.origin))
            default: break
            }
        }
    }

    // MARK: - Record types

    private static func diffAddedType(_ t: RecordType, into out: inout [SchemaChange]) {
        out.append(SchemaChange(.addRecordType, recordType: t.name, after: placement(t), origin: t.origin))
        for sys in SystemField.allCases {
            for kind in t.indexes(on: sys) {
                out.append(SchemaChange(.addIndex, recordType: t.name, field: sys.rawValue, isSystemField: true, index: kind, origin: t.origin))
            }
        }
        // A field CloudKit creates only on demand (an asset companion) is not part of a new type.
        for f in t.fields.sorted(by: { $0.name < $1.name }) where !f.mayBeAbsent {
            out.append(SchemaChange(.addField, recordType: t.name, field: f.name, after: fieldText(f), origin: f.origin))
        }
        for g in t.grants.sorted(by: { $0.role < $1.role }) {
            out.append(SchemaChange(.addGrant, recordType: t.name, role: g.role, after: permissionsText(g.permissions), origin: g.origin))
        }
    }

    private static func diffType(_ a: RecordType, _ b: RecordType, partial: Bool = false, indexesUnstated: Bool = false, into out: inout [SchemaChange]) {
        let name = b.name
        if let za = a.zone, let zb = b.zone, za != zb {
            out.append(SchemaChange(.changeRecordTypeZone, recordType: name, zone: zb, before: za, after: zb, origin: b.origin, fromOrigin: a.origin))
        }
        if let da = a.database, let db = b.database, da != db {
            out.append(SchemaChange(.changeRecordTypeDatabase, recordType: name, before: da.rawValue, after: db.rawValue, origin: b.origin, fromOrigin: a.origin))
        }
        if a.isDeprecated != b.isDeprecated {
            out.append(SchemaChange(b.isDeprecated ? .deprecateRecordType : .undeprecateRecordType, recordType: name, origin: b.origin, fromOrigin: a.origin))
        }
        if let da = a.description, let db = b.description, da != db {
            out.append(SchemaChange(.changeRecordTypeDescription, recordType: name, before: da, after: db, origin: b.origin, fromOrigin: a.origin))
        }
        if a.requiredCapabilities != b.requiredCapabilities {
            let text = { (c: Set<ZoneCapability>) in c.sorted().map(\.rawValue).joined(separator: ", ") }
            out.append(SchemaChange(.changeRequiredCapabilities, recordType: name, before: text(a.requiredCapabilities), after: text(b.requiredCapabilities), origin: b.origin, fromOrigin: a.origin))
        }
        if a.systemIndexes != b.systemIndexes, !indexesUnstated {
            for sys in SystemField.allCases {
                diffIndexes(a.indexes(on: sys), b.indexes(on: sys), recordType: name, field: sys.rawValue, isSystem: true,
                            origin: b.systemIndexOrigin(sys), fromOrigin: a.systemIndexOrigin(sys), into: &out)
            }
        }
        if a.fields != b.fields { diffFields(a, b, partial: partial, indexesUnstated: indexesUnstated, into: &out) }
        if a.grants != b.grants, !a.grants.isEmpty, !b.grants.isEmpty { diffGrants(a, b, into: &out) }
    }

    private static func diffFields(_ a: RecordType, _ b: RecordType, partial: Bool, indexesUnstated: Bool, into out: inout [SchemaChange]) {
        let name = b.name
        let fromFields = Dictionary(a.fields.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
        let toFields = Dictionary(b.fields.map { ($0.name, $0) }, uniquingKeysWith: { x, _ in x })
        for fieldName in Set(fromFields.keys).union(toFields.keys).sorted() {
            switch (fromFields[fieldName], toFields[fieldName]) {
            case (nil, let g?) where g.mayBeAbsent, (let g?, nil) where g.mayBeAbsent:
                // CloudKit creates it only on demand (an asset companion): absent is not different.
                break
            case (_?, nil) where name == "Users" && fieldName == "roles":
                // CloudKit keeps `Users.roles` itself (every export has it): a `Users` that does
                // not state it leaves it unstated, never deletes it (an empty store's production
                // against a first migration's `addRecordType: Users` was a false CK302).
                break
            case let (f?, nil) where partial:
                out.append(SchemaChange(.notDescribedField, recordType: name, field: fieldName, before: fieldText(f), origin: f.origin, fromOrigin: f.origin))
            case let (nil, g?):
                out.append(SchemaChange(.addField, recordType: name, field: fieldName, after: fieldText(g), origin: g.origin))
            case let (f?, nil):
                out.append(SchemaChange(.removeField, recordType: name, field: fieldName, before: fieldText(f), origin: f.origin, fromOrigin: f.origin))
            case let (f?, g?) where f != g:
                diffField(f, g, recordType: name, indexesUnstated: indexesUnstated, into: &out)
            default: break
            }
        }
    }

    private static func diffField(_ f: Field, _ g: Field, recordType: String, indexesUnstated: Bool, into out: inout [SchemaChange]) {
        func change(_ kind: SchemaChange.Kind, before: String? = nil, after: String? = nil) {
            out.append(SchemaChange(kind, recordType: recordType, field: g.name, before: before, after: after, origin: g.origin, fromOrigin: f.origin))
        }
        if f.type != g.type { change(.changeFieldType, before: f.type.description, after: g.type.description) }
        if f.isEncrypted != g.isEncrypted { change(g.isEncrypted ? .encryptField : .decryptField) }
        if let ta = f.referenceTarget, let tb = g.referenceTarget, ta != tb { change(.changeReferenceTarget, before: ta, after: tb) }
        if let xa = f.referenceAction, let xb = g.referenceAction, xa != xb { change(.changeReferenceAction, before: xa.rawValue, after: xb.rawValue) }
        if f.isDeprecated != g.isDeprecated { change(g.isDeprecated ? .deprecateField : .undeprecateField) }
        if let da = f.description, let db = g.description, da != db { change(.changeFieldDescription, before: da, after: db) }
        if indexesUnstated { return }
        diffIndexes(f.indexes, g.indexes, recordType: recordType, field: g.name, isSystem: false, origin: g.origin, fromOrigin: f.origin, into: &out)
    }

    private static func diffIndexes(
        _ a: IndexKinds, _ b: IndexKinds, recordType: String, field: String, isSystem: Bool,
        origin: Origin, fromOrigin: Origin, into out: inout [SchemaChange]
    ) {
        guard a != b else { return }
        for kind in a.subtracting(b) {
            // A removed index points at the line that still names the field, when there is one.
            out.append(SchemaChange(.removeIndex, recordType: recordType, field: field, isSystemField: isSystem, index: kind, origin: origin, fromOrigin: fromOrigin))
        }
        for kind in b.subtracting(a) {
            out.append(SchemaChange(.addIndex, recordType: recordType, field: field, isSystemField: isSystem, index: kind, origin: origin, fromOrigin: fromOrigin))
        }
    }

    private static func diffGrants(_ a: RecordType, _ b: RecordType, into out: inout [SchemaChange]) {
        let fromGrants = Dictionary(a.grants.map { ($0.role, $0) }, uniquingKeysWith: { x, y in Grant(role: x.role, permissions: x.permissions.union(y.permissions), origin: x.origin) })
        let toGrants = Dictionary(b.grants.map { ($0.role, $0) }, uniquingKeysWith: { x, y in Grant(role: x.role, permissions: x.permissions.union(y.permissions), origin: x.origin) })
        for role in Set(fromGrants.keys).union(toGrants.keys).sorted() {
            switch (fromGrants[role], toGrants[role]) {
            case let (nil, g?):
                out.append(SchemaChange(.addGrant, recordType: b.name, role: role, after: permissionsText(g.permissions), origin: g.origin))
            case let (f?, nil):
                out.append(SchemaChange(.removeGrant, recordType: b.name, role: role, before: permissionsText(f.permissions), origin: f.origin, fromOrigin: f.origin))
            case let (f?, g?) where f.permissions != g.permissions:
                out.append(SchemaChange(.changeGrant, recordType: b.name, role: role, before: permissionsText(f.permissions), after: permissionsText(g.permissions), origin: g.origin, fromOrigin: f.origin))
            default: break
            }
        }
    }

    private static func diffQueries(_ a: [DeclaredQuery], _ b: [DeclaredQuery], into out: inout [SchemaChange]) {
        guard a != b else { return }
        // Queries have no identity but their content: compare as multisets.
        var remaining: [DeclaredQuery: Int] = [:]
        for q in b { remaining[q, default: 0] += 1 }
        var removed: [DeclaredQuery] = []
        for q in a {
            if let n = remaining[q], n > 0 { remaining[q] = n - 1 } else { removed.append(q) }
        }
        var unmatched: [DeclaredQuery: Int] = [:]
        for q in a { unmatched[q, default: 0] += 1 }
        var added: [DeclaredQuery] = []
        for q in b {
            if let n = unmatched[q], n > 0 { unmatched[q] = n - 1 } else { added.append(q) }
        }
        for q in removed.sorted(by: { $0.label < $1.label }) {
            out.append(SchemaChange(.removeQuery, recordType: q.recordType, query: q.label, origin: q.origin, fromOrigin: q.origin))
        }
        for q in added.sorted(by: { $0.label < $1.label }) {
            out.append(SchemaChange(.addQuery, recordType: q.recordType, query: q.label, origin: q.origin))
        }
    }

    /// A system record type as every container has it: `Users` with `roles: list<int64>`
    /// (what `cktool export-schema` writes for a Users type never changed), with its
    /// grants unstated; `cloudkit.share` with no custom field.
    static func implicitSystemType(_ name: String) -> RecordType {
        guard name == "Users" else { return RecordType(name: name) }
        var users = CKDBExporter.defaultUsersType
        users.grants = []
        return users
    }

    // MARK: - Text of elements

    /// `string [queryable, searchable]`, `bytes encrypted`, `reference -> User deleteSelf [queryable]`.
    static func fieldText(_ f: Field) -> String {
        var parts = [f.type.description]
        if let target = f.referenceTarget { parts.append("-> \(target)") }
        if let action = f.referenceAction, action != .none { parts.append(action.rawValue) }
        if f.isEncrypted { parts.append("encrypted") }
        if !f.indexes.isEmpty { parts.append(f.indexes.description) }
        if f.isDeprecated { parts.append("deprecated") }
        return parts.joined(separator: " ")
    }

    static func zoneText(_ z: Zone) -> String {
        let caps = ZoneCapability.allCases.filter(z.capabilities.contains).map(\.rawValue)
        return z.database.rawValue + (caps.isEmpty ? "" : " [" + caps.joined(separator: ", ") + "]")
    }

    static func permissionsText(_ p: Set<Permission>) -> String {
        p.isEmpty ? "none" : p.sorted().map(\.rawValue).joined(separator: ", ")
    }

    private static func placement(_ t: RecordType) -> String? {
        if let z = t.zone { return "in zone \(z)" }
        if let d = t.database { return "in the \(d.rawValue) database" }
        return nil
    }
}

extension SchemaDiff {
    /// The `format` value of `diff --format json`.
    public static let format = "ckschema-diff"
    /// The version of the diff JSON format.
    public static let version = 1

    private enum CodingKeys: String, CodingKey { case format, version, changes }

    /// Writes `{"format": "ckschema-diff", "version": 1, "changes": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.format, forKey: .format)
        try c.encode(Self.version, forKey: .version)
        try c.encode(changes, forKey: .changes)
    }

    /// Reads what `encode(to:)` wrote.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(changes: try c.decode([SchemaChange].self, forKey: .changes))
    }

    /// The JSON `diff --format json` prints (documented in docs/output.md), ending in a newline.
    public var jsonData: Data {
        guard let data = JSONValue.prettyData(self) else { preconditionFailure("a diff always encodes") }
        return data
    }
}
