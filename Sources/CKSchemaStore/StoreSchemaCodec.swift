import CKSchemaModel

/// The store's own lossless JSON form of a `Schema`, kept beside the canonical YAML so that the
/// store can read an environment's schema back without the YAML decoder.
package enum StoreSchemaCodec {
    static func encode(_ s: Schema) -> String {
        var root: [(String, JSONValue)] = []
        if let c = s.container { root.append(("container", .string(c))) }
        root.append(("zones", .array(s.zones.map { z in
            .object([
                ("name", .string(z.name)), ("database", .string(z.database.rawValue)),
                ("capabilities", .array(z.capabilities.sorted().map { .string($0.rawValue) })),
            ])
        })))
        root.append(("roles", .array(s.roles.map { .string($0.name) })))
        root.append(("recordTypes", .array(s.recordTypes.map(encode))))
        root.append(("queries", .array(s.queries.map { q in
            var o: [(String, JSONValue)] = [("recordType", .string(q.recordType))]
            o.append(("filter", .array(q.filter.map { .string($0) })))
            o.append(("search", .array(q.search.map { .string($0) })))
            o.append(("sort", .array(q.sort.map { .string($0) })))
            if let d = q.database { o.append(("database", .string(d.rawValue))) }
            if let n = q.name { o.append(("name", .string(n))) }
            if let p = q.predicate { o.append(("predicate", .string(p))) }
            return .object(o)
        })))
        if !s.subscriptions.isEmpty { root.append(("subscriptions", .array(s.subscriptions.map(encode)))) }
        return JSONValue.object(root).text
    }

    static func encode(_ t: RecordType) -> JSONValue {
        var o: [(String, JSONValue)] = [("name", .string(t.name))]
        if let z = t.zone { o.append(("zone", .string(z))) }
        if let d = t.database { o.append(("database", .string(d.rawValue))) }
        if let d = t.description { o.append(("description", .string(d))) }
        if t.isDeprecated { o.append(("deprecated", .bool(true))) }
        if !t.requiredCapabilities.isEmpty { o.append(("requires", .array(t.requiredCapabilities.sorted().map { .string($0.rawValue) }))) }
        o.append(("fields", .array(t.fields.map(encode))))
        o.append(("system", .object(t.systemIndexes.sorted { $0.key.rawValue < $1.key.rawValue }.map { k, v in
            (k.rawValue, .array(v.kinds.map { .string($0.rawValue) }))
        })))
        o.append(("grants", .array(t.grants.map { g in
            .object([("role", .string(g.role)), ("permissions", .array(g.sortedPermissions.map { .string($0.rawValue) }))])
        })))
        return .object(o)
    }

    static func encode(_ f: Field) -> JSONValue {
        var o: [(String, JSONValue)] = [("name", .string(f.name)), ("type", .string(f.type.description))]
        if f.isEncrypted { o.append(("encrypted", .bool(true))) }
        if !f.indexes.isEmpty { o.append(("indexes", .array(f.indexes.kinds.map { .string($0.rawValue) }))) }
        if f.isDeprecated { o.append(("deprecated", .bool(true))) }
        if let r = f.referenceTarget { o.append(("to", .string(r))) }
        if let a = f.referenceAction { o.append(("action", .string(a.rawValue))) }
        if let d = f.description { o.append(("description", .string(d))) }
        return .object(o)
    }

    static func encode(_ sub: Subscription) -> JSONValue {
        var o: [(String, JSONValue)] = [("id", .string(sub.id)), ("type", .string(sub.kind.rawValue)), ("database", .string(sub.database.rawValue))]
        if let z = sub.zone { o.append(("zone", .string(z))) }
        if let t = sub.recordType { o.append(("recordType", .string(t))) }
        if let p = sub.predicate { o.append(("predicate", .string(p))) }
        o.append(("firesOn", .array(sub.firesOn.sorted().map { .string($0.rawValue) })))
        o.append(("desiredKeys", .array(sub.desiredKeys.map { .string($0) })))
        return .object(o)
    }

    static func decodeSubscription(_ o: JSONValue) throws(DecodeError) -> Subscription {
        guard let id = o["id"]?.stringValue, let kind = o["type"]?.stringValue.flatMap(Subscription.Kind.init(rawValue:)),
              let db = o["database"]?.stringValue.flatMap(Database.init(rawValue:)) else {
            throw DecodeError(message: "stored subscription is malformed")
        }
        return Subscription(id: id, kind: kind, database: db, recordType: o["recordType"]?.stringValue, predicate: o["predicate"]?.stringValue,
                            firesOn: Set((o["firesOn"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Subscription.Event.init(rawValue:)) }),
                            desiredKeys: (o["desiredKeys"]?.arrayValue ?? []).compactMap(\.stringValue), zone: o["zone"]?.stringValue)
    }

    package struct DecodeError: Error { var message: String }

    package static func decode(_ text: String) throws(DecodeError) -> Schema {
        let root: JSONValue
        do { root = try JSONValue.parse(text) } catch { throw DecodeError(message: "stored schema is not JSON: \(error.message)") }
        var s = Schema(container: root["container"]?.stringValue)
        for z in root["zones"]?.arrayValue ?? [] {
            guard let name = z["name"]?.stringValue, let db = z["database"]?.stringValue.flatMap(Database.init(rawValue:)) else {
                throw DecodeError(message: "stored zone is malformed")
            }
            let caps = Set((z["capabilities"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ZoneCapability.init(rawValue:)) })
            s.zones.append(Zone(name: name, database: db, capabilities: caps))
        }
        s.roles = (root["roles"]?.arrayValue ?? []).compactMap { $0.stringValue.map { Role(name: $0) } }
        for t in root["recordTypes"]?.arrayValue ?? [] {
            guard let name = t["name"]?.stringValue else { throw DecodeError(message: "stored record type has no name") }
            var rt = RecordType(name: name, zone: t["zone"]?.stringValue, database: t["database"]?.stringValue.flatMap(Database.init(rawValue:)),
                                description: t["description"]?.stringValue, isDeprecated: t["deprecated"]?.boolValue ?? false,
                                requiredCapabilities: Set((t["requires"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ZoneCapability.init(rawValue:)) }))
            for f in t["fields"]?.arrayValue ?? [] {
                guard let fname = f["name"]?.stringValue, let type = f["type"]?.stringValue.flatMap(FieldType.init(parsing:)) else {
                    throw DecodeError(message: "stored field of '\(name)' is malformed")
                }
                rt.fields.append(Field(
                    name: fname, type: type, isEncrypted: f["encrypted"]?.boolValue ?? false,
                    indexes: IndexKinds((f["indexes"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(IndexKind.init(rawValue:)) }),
                    isDeprecated: f["deprecated"]?.boolValue ?? false, referenceTarget: f["to"]?.stringValue,
                    referenceAction: f["action"]?.stringValue.flatMap(ReferenceAction.init(rawValue:)), description: f["description"]?.stringValue))
            }
            for (k, v) in t["system"]?.objectValue ?? [] {
                guard let sf = SystemField(rawValue: k) else { continue }
                rt.systemIndexes[sf] = IndexKinds((v.arrayValue ?? []).compactMap { $0.stringValue.flatMap(IndexKind.init(rawValue:)) })
            }
            for g in t["grants"]?.arrayValue ?? [] {
                guard let role = g["role"]?.stringValue else { continue }
                rt.grants.append(Grant(role: role, permissions: Set((g["permissions"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Permission.init(rawValue:)) })))
            }
            s.recordTypes.append(rt)
        }
        for q in root["queries"]?.arrayValue ?? [] {
            guard let rt = q["recordType"]?.stringValue else { continue }
            func list(_ k: String) -> [String] { (q[k]?.arrayValue ?? []).compactMap(\.stringValue) }
            var dq = DeclaredQuery(recordType: rt, filter: list("filter"), search: list("search"), sort: list("sort"),
                                   database: q["database"]?.stringValue.flatMap(Database.init(rawValue:)), name: q["name"]?.stringValue)
            dq.predicate = q["predicate"]?.stringValue
            s.queries.append(dq)
        }
        for o in root["subscriptions"]?.arrayValue ?? [] { s.subscriptions.append(try decodeSubscription(o)) }
        return s
    }
}

extension Schema {
    /// The schema with its parts in name order and without what migrations do not carry
    /// (declared queries, the container name, descriptions, source order): two schemas that a
    /// store would serve identically compare equal after this. Used for drift checks.
    public var storeNormalized: Schema {
        var s = self
        s.queries = []
        s.container = nil
        s.zones.sort { $0.name < $1.name }
        s.roles.sort { $0.name < $1.name }
        s.recordTypes.sort { $0.name < $1.name }
        s.subscriptions.sort { $0.id < $1.id }
        for i in s.recordTypes.indices {
            s.recordTypes[i].fields.sort { $0.name < $1.name }
            s.recordTypes[i].description = nil
            for j in s.recordTypes[i].fields.indices { s.recordTypes[i].fields[j].description = nil }
            s.recordTypes[i].grants.sort { $0.role < $1.role }
            s.recordTypes[i].systemIndexes = s.recordTypes[i].systemIndexes.filter { !$0.value.isEmpty }
        }
        return s
    }
}
