import CKSchemaDiagnostics
import CKSchemaModel

/// Turns a YAML schema file's nodes into the model, following `docs/schema-format.md`.
/// Collects every problem; the caller throws when any is an error.
package struct SchemaDecoder {
    static let topKeys = ["ckschema", "partial", "container", "roles", "zones", "recordTypes", "queries", "subscriptions"]
    static let zoneKeys = ["database", "capabilities"]
    package static let recordTypeKeys = ["description", "zone", "database", "deprecated", "requires", "system", "fields", "grants"]
    static let fieldKeys = ["type", "encrypted", "indexes", "deprecated", "to", "action", "description", "onDemand"]
    static let queryKeys = ["name", "recordType", "filter", "search", "sort", "database", "predicate"]

    package var d: NodeDecoder
    /// Lines of keys by path, for putting comments back (`recordTypes.Note.fields`).
    var keyLines: [String: Int] = [:]
    /// Whether `keyLines` is kept. Off when only the model is wanted (`lint`, `check`): for a
    /// 2,000-type schema the paths and their table cost load + lint 5% of its instructions.
    var keepsKeyLines = true

    package init(file: String) { d = NodeDecoder(file: file) }

    /// Notes the line of the key at `path`; the path is built only when key lines are kept.
    @inline(__always)
    mutating func noteKeyLine(_ path: @autoclosure () -> String, _ line: Int) {
        if keepsKeyLines { keyLines[path()] = line }
    }

    mutating func decode(_ document: YAMLDocument) -> Schema {
        var schema = Schema(origin: Origin(SourceLocation(file: d.file, line: 1, column: 1)))
        guard let root = document.root, !root.isNull else {
            d.append(Diagnostic(rule: InputRules.wrongKind, "the schema file is empty",
                            at: SourceLocation(file: d.file, line: 1, column: 1),
                            fix: "start it with 'ckschema: 1' and a 'recordTypes:' mapping (see docs/schema-format.md)"))
            return schema
        }
        guard let pairs = d.pairs(root, what: "a schema file", allowed: Self.topKeys) else { return schema }
        for p in pairs {
            noteKeyLine(p.name, p.key.line)
            section(p.name, p.value, into: &schema)
        }
        return schema
    }

    /// One top-level key's value (`zones:`, `recordTypes:`, ...) into the schema.
    /// `SchemaEventDecoder` hands its less common sections here, as trees of their own.
    mutating func section(_ name: String, _ value: YAMLNode, into schema: inout Schema) {
        switch name {
        case "ckschema":
            if let v = d.int(value, what: "'ckschema' (the format version)"), v != Schema.formatVersion {
                d.report(InputRules.invalidValue, "format version \(v) is not supported; this ckschema reads version \(Schema.formatVersion)", at: value,
                         fix: v > Schema.formatVersion ? "upgrade ckschema" : "set 'ckschema: \(Schema.formatVersion)'")
            }
        case "partial":
            // The schema describes only what a Core Data model (or SwiftData) mirrors: what it
            // omits is not described, never removed (`ckschema import` of a model writes it).
            schema.isPartial = d.bool(value, what: "'partial'") ?? false
        case "container":
            schema.container = d.string(value, what: "'container'")
        case "roles":
            for (name, node) in d.stringList(value, what: "'roles'") {
                schema.roles.append(Role(name: name, origin: Origin(d.location(node))))
            }
        case "zones":
            guard let zones = d.pairs(value, what: "'zones'") else { return }
            for z in zones { if let zone = zone(z) { schema.zones.append(zone) } }
        case "recordTypes":
            guard let types = d.pairs(value, what: "'recordTypes'") else { return }
            for t in types { if let rt = recordType(t) { schema.recordTypes.append(rt) } }
        case "queries":
            guard let items = value.sequence else {
                d.report(InputRules.wrongKind, "'queries' must be a list, found \(value.kindName)", at: value)
                return
            }
            for item in items { if let q = query(item) { schema.queries.append(q) } }
        case "subscriptions":
            guard let subs = d.pairs(value, what: "'subscriptions'") else { return }
            for s in subs { if let sub = subscription(s) { schema.subscriptions.append(sub) } }
        default:
            break
        }
    }

    private mutating func zone(_ p: YAMLPair) -> Zone? {
        var zone = Zone(name: p.name, origin: Origin(d.location(p.key)))
        if p.value.isNull { return zone }
        guard let pairs = d.pairs(p.value, what: "zone '\(p.name)'", allowed: Self.zoneKeys) else { return nil }
        for q in pairs {
            switch q.name {
            case "database":
                if let db = d.enumValue(q.value, what: "database", as: Database.self) { zone.database = db }
            case "capabilities":
                zone.capabilities = d.enumSet(q.value, what: "zone capability", as: ZoneCapability.self)
            default: break
            }
        }
        return zone
    }

    private mutating func recordType(_ p: YAMLPair) -> RecordType? {
        if p.value.isNull { return RecordType(name: p.name, origin: Origin(d.location(p.key))) }
        guard let pairs = d.pairs(p.value, what: "record type '\(p.name)'", allowed: Self.recordTypeKeys) else { return nil }
        return recordType(name: p.name, at: p.key, pairs: pairs)
    }

    /// A record type from the keys of its mapping (`description`, `zone`, `fields`, ...),
    /// whose unknown keys the caller has reported. Migrations' `addRecordType` uses it too,
    /// so a record type means the same in a migration as in a schema file.
    package mutating func recordType<P: Sequence<YAMLPair>>(name: String, at key: YAMLNode, pairs: P) -> RecordType {
        let p = (name: name, key: key)
        var rt = RecordType(name: p.name, origin: Origin(d.location(p.key)))
        for q in pairs {
            noteKeyLine("recordTypes.\(p.name).\(q.name)", q.key.line)
            switch q.name {
            case "description": rt.description = d.string(q.value, what: "'description'")
            case "zone": rt.zone = d.string(q.value, what: "'zone'")
            case "database": rt.database = d.enumValue(q.value, what: "database", as: Database.self)
            case "deprecated": rt.isDeprecated = d.bool(q.value, what: "'deprecated'") ?? false
            case "requires":
                rt.requiredCapabilities = d.enumSet(q.value, what: "zone capability", as: ZoneCapability.self)
            case "system":
                guard let sys = d.pairs(q.value, what: "'system' of '\(p.name)'") else { continue }
                for s in sys {
                    guard let field = SystemField(rawValue: s.name) else {
                        let all = SystemField.allCases.map(\.rawValue)
                        d.report(InputRules.unknownKey, "'\(s.name)' is not a system field\(Suggest.phrase(for: s.name, in: all))", at: s.key,
                                 fix: "system fields: " + all.joined(separator: ", "))
                        continue
                    }
                    noteKeyLine("recordTypes.\(p.name).system.\(s.name)", s.key.line)
                    // `createdAt:` with no index is no index: kept out of the model, so that the
                    // model `fmt` writes (which omits it) parses back equal (found by FuzzFmt).
                    let set = indexes(s.value, what: "indexes of system field '\(s.name)'")
                    if !set.isEmpty {
                        rt.systemIndexes[field] = set
                        rt.systemIndexOrigins.table[field] = Origin(d.location(s.key))
                    }
                }
            case "fields":
                guard let fields = d.pairs(q.value, what: "'fields' of '\(p.name)'") else { continue }
                rt.fields.reserveCapacity(fields.count)
                for f in fields { if let field = field(f, in: p.name) { rt.fields.append(field) } }
            case "grants":
                guard let grants = d.pairs(q.value, what: "'grants' of '\(p.name)'") else { continue }
                for g in grants {
                    let perms = d.enumSet(g.value, what: "permission", as: Permission.self)
                    rt.grants.append(Grant(role: g.name, permissions: perms, origin: Origin(d.location(g.key))))
                }
            default: break
            }
        }
        return rt
    }

    private mutating func field(_ p: YAMLPair, in typeName: String) -> Field? {
        field(name: p.name, at: p.key, spec: p.value, in: typeName)
    }

    /// A field from its shorthand (`cover: asset`) or its mapping (`{ type: string, ... }`).
    /// Migration steps decode their fields here too: the same keys, types, strict booleans
    /// and codes as schema files.
    mutating func field(name: String, at key: YAMLNode, spec: YAMLNode, in typeName: String) -> Field? {
        // Shorthand: `cover: asset` is a plain field of that type.
        if case .scalar = spec.kind, !spec.isNull {
            guard let type = fieldType(spec) else { return nil }
            var field = Field(name: name, type: type, origin: Origin(d.location(key)))
            field.placeType(line: spec.line, column: spec.column)
            return field
        }
        guard spec.shape == .mapping else {
            if let list = Self.bracketedType(spec) {
                d.report(InputRules.wrongKind, "field '\(typeName).\(name)' must be a type or a mapping, found a list: `[\(list.written)]` is a YAML list; did you mean `\(name): list<\(list.element)>`?",
                         at: spec, fix: Self.bracketFix(list.element))
                return nil
            }
            d.report(InputRules.wrongKind, "field '\(typeName).\(name)' must be a type or a mapping, found \(spec.kindName)", at: spec)
            return nil
        }
        return field(name: name, at: key, pairs: spec.pairs, in: typeName)
    }

    /// A field from the keys of a mapping; `key` is where its name is written.
    package mutating func field<P: Sequence<YAMLPair>>(name: String, at key: YAMLNode, pairs: P, in typeName: String) -> Field? {
        let p = (name: name, key: key)
        // One pass over the keys (loading large schemas is hot).
        var field = Field(name: p.name, type: FieldType(.string), origin: Origin(d.location(key)))
        var typeNode: YAMLNode?
        for q in pairs {
            switch q.name {
            case "type": typeNode = q.value
            case "encrypted": field.isEncrypted = d.bool(q.value, what: "'encrypted'") ?? false
            case "deprecated": field.isDeprecated = d.bool(q.value, what: "'deprecated'") ?? false
            case "indexes":
                field.indexes = indexes(q.value, what: "'indexes' of '\(typeName).\(p.name)'")
                let v = q.value
                if let place = Self.indexesPlace(line: v.line, column: v.column, width: v.sourceWidth ?? -1,
                                                 isEmptyScalar: v.shape == .scalar && v.style == .plain && v.text.isEmpty) {
                    field.placeIndexes(line: place.line, column: place.column, width: place.width)
                }
            case "to":
                field.referenceTarget = d.string(q.value, what: "'to'")
                field.placeReferenceTarget(line: q.value.line, column: q.value.column)
            case "action": field.referenceAction = d.enumValue(q.value, what: "reference action", as: ReferenceAction.self)
            case "description": field.description = d.string(q.value, what: "'description'")
            // CloudKit creates the field only when a record first needs it (a Core Data
            // `_ckAsset` companion, `CD_moveReceipt`): its absence is not a difference.
            case "onDemand": field.mayBeAbsent = d.bool(q.value, what: "'onDemand'") ?? false
            default:
                // Renaming the key to one the field has already would make a duplicate key.
                let free = Suggest.closest(to: q.name, in: Self.fieldKeys).flatMap { k in pairs.contains { $0.name == k } ? nil : k }
                d.report(InputRules.unknownKey, "unknown key '\(q.name)' in field '\(typeName).\(p.name)'\(Suggest.phrase(for: q.name, in: Self.fieldKeys))",
                         at: q.key, fix: "allowed keys: " + Self.fieldKeys.joined(separator: ", "), fixIt: d.fixIt(replacing: q.key, with: free))
            }
        }
        guard let typeNode else {
            d.report(InputRules.missingKey, "field '\(typeName).\(p.name)' has no 'type'", at: p.key,
                     fix: "add 'type:' with one of: " + Self.typeNames.joined(separator: ", "))
            return nil
        }
        guard let type = fieldType(typeNode) else { return nil }
        field.type = type
        field.placeType(line: typeNode.line, column: typeNode.column)
        return field
    }

    /// Where an `indexes:` value is, for findings that point at it, and its width when an
    /// index fix-it may replace it whole: a flow list or a scalar on one line (`width` from
    /// libyaml's marks, -1 otherwise). An empty value (`indexes:` and nothing) has no place
    /// of its own. Both decoders ask this, so they record the same places.
    static func indexesPlace(line: Int, column: Int, width: Int, isEmptyScalar: Bool) -> (line: Int, column: Int, width: Int?)? {
        isEmptyScalar ? nil : (line, column, width > 0 ? width : nil)
    }

    static let typeNames = PrimitiveType.allCases.filter { $0 != .number }.map(\.rawValue) + ["list<T>"]

    /// The element type of a type written in brackets (`type: [asset]`, Swift's spelling of an
    /// array), which YAML reads as a one-item list; nil for anything else.
    static func bracketedType(_ node: YAMLNode) -> (written: String, element: String)? {
        guard let items = node.sequence, items.count == 1, let s = items[0].scalar, !items[0].isNull else { return nil }
        let t = FieldType(parsing: s) ?? FieldType.cloudKitSpelling(ofSwiftType: s).flatMap { FieldType(parsing: $0) }
        guard let t, !t.isList else { return nil }
        return (s, t.description)
    }

    /// What to write instead of a bracketed type.
    static func bracketFix(_ element: String) -> String {
        "in YAML brackets make a list, and CloudKit's list type is spelled list<T>: write `list<\(element)>` (quotes are not needed)"
    }

    private mutating func fieldType(_ node: YAMLNode) -> FieldType? {
        if let list = Self.bracketedType(node) {
            d.report(InputRules.wrongKind, "a field type must be a string, found a list: `[\(list.written)]` is a YAML list; did you mean `list<\(list.element)>`?",
                     at: node, fix: Self.bracketFix(list.element))
            return nil
        }
        guard let s = d.string(node, what: "a field type") else { return nil }
        if let t = FieldType(parsing: s) { return t }
        var candidates = PrimitiveType.allCases.map(\.rawValue)
        candidates += PrimitiveType.allCases.map { "list<\($0.rawValue)>" }
        // A Swift type (`Date`, `[asset]`) gets CloudKit's name for it; else the nearest spelling.
        let swift = FieldType.cloudKitSpelling(ofSwiftType: s)
        let suggestion = swift ?? Suggest.closest(to: s, in: candidates)
        let hint = swift.map { "; did you mean '\($0)'? (CloudKit's type for \(s))" } ?? Suggest.phrase(for: s, in: candidates)
        d.report(InputRules.invalidValue, "unknown field type '\(s)'\(hint)", at: node,
                 fix: "use one of: " + Self.typeNames.joined(separator: ", "), fixIt: d.fixIt(replacing: node, with: suggestion))
        return nil
    }

    private mutating func indexes(_ node: YAMLNode, what: @autoclosure () -> String) -> IndexKinds {
        var set = IndexKinds()
        // The common case, a flow list of plain words, is read without building a list.
        if node.shape == .sequence {
            for i in 0..<node.childCount {
                let item = node.child(i)
                switch item.shape == .scalar ? item.text : "" {
                case "queryable": set.insert(.queryable)
                case "searchable": set.insert(.searchable)
                case "sortable": set.insert(.sortable)
                default: badIndex(item, what: what())
                }
            }
            return set
        }
        for (_, item) in d.stringList(node, what: what()) {
            if let k = IndexKind(rawValue: item.text) { set.insert(k) } else { badIndex(item, what: what()) }
        }
        return set
    }

    private mutating func badIndex(_ item: YAMLNode, what: String) {
        guard item.shape == .scalar, !item.isNull else {
            d.report(InputRules.wrongKind, "an item of \(what) must be a string, found \(item.kindName)", at: item)
            return
        }
        let all = IndexKind.allCases.map(\.rawValue)
        d.report(InputRules.invalidValue, "'\(item.text)' is not an index kind\(Suggest.phrase(for: item.text, in: all))", at: item,
                 fix: "use one of: " + all.joined(separator: ", "), fixIt: d.fixIt(replacing: item, with: Suggest.closest(to: item.text, in: all)))
    }

    private mutating func query(_ node: YAMLNode) -> DeclaredQuery? {
        guard let pairs = d.pairs(node, what: "a query", allowed: Self.queryKeys) else { return nil }
        guard let typeNode = pairs.first(where: { $0.name == "recordType" })?.value else {
            d.report(InputRules.missingKey, "a query has no 'recordType'", at: node, fix: "add 'recordType: <type>'")
            return nil
        }
        var q = DeclaredQuery(recordType: d.string(typeNode, what: "'recordType'") ?? "", origin: Origin(d.location(node)))
        q.places.recordType = Origin(d.location(typeNode))
        for p in pairs {
            switch p.name {
            case "name": q.name = d.string(p.value, what: "'name'")
            case "filter":
                let items = d.stringList(p.value, what: "'filter'")
                q.filter = items.map(\.0)
                q.places.filter = items.map { Origin(d.location($0.1)) }
            case "search":
                let items = d.stringList(p.value, what: "'search'")
                q.search = items.map(\.0)
                q.places.search = items.map { Origin(d.location($0.1)) }
            case "sort":
                let items = d.stringList(p.value, what: "'sort'")
                q.sort = items.map(\.0)
                q.places.sort = items.map { Origin(d.location($0.1)) }
            case "database": q.database = d.enumValue(p.value, what: "database", as: Database.self)
            case "predicate":
                q.predicate = d.string(p.value, what: "'predicate'")
                q.predicateOrigin = predicateStart(p.value)
            default: break
            }
        }
        return q
    }
}
