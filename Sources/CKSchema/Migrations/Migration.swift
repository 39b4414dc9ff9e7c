import Foundation

/// One migration file, `Migrations/NNNN_name.yaml`: a version, a name, and its steps.
public struct Migration: Sendable, Hashable {
    public var version: Int
    /// The part of the file name after the number (`add_title`).
    public var name: String
    /// The file name (`0002_add_title.yaml`).
    public var fileName: String
    /// The path it was read from.
    public var path: String
    /// SHA-256 of the file's normalized form (`SumFile.normalizedText`).
    public var checksum: String
    public var description: String?
    public var steps: [MigrationStep]

    public init(version: Int, name: String, fileName: String, path: String, checksum: String, description: String? = nil, steps: [MigrationStep]) {
        self.version = version
        self.name = name
        self.fileName = fileName
        self.path = path
        self.checksum = checksum
        self.description = description
        self.steps = steps
    }

    /// The version and name from a file name: `0002_add_title.yaml` gives (2, "add_title").
    public static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".yaml") else { return nil }
        let stem = fileName.dropLast(5)
        guard let us = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<us], name = stem[stem.index(after: us)...]
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let v = Int(digits), v > 0, !name.isEmpty,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return nil }
        return (v, String(name))
    }

    /// Reads and parses a migration file. Throws `InputError` with file:line:col diagnostics.
    public static func read(path: String) throws(InputError) -> Migration {
        let data = try InputFile.read(path: path, limit: YAMLReader.maxFileSize)
        return try parse(data, path: path)
    }

    /// Parses a migration file's text; `path` names it (its last component must be `NNNN_name.yaml`).
    public static func parse(_ data: Data, path: String) throws(InputError) -> Migration {
        let fileName = (path as NSString).lastPathComponent
        guard let (version, name) = parseFileName(fileName) else {
            throw InputError(.error(StoreRules.fileName.code, "migration file '\(fileName)' is not named NNNN_name.yaml", at: SourceLocation(file: path, line: 1, column: 1),
                                    fix: "rename it like 0001_initial.yaml: four digits, an underscore, a name of letters, digits, '_' or '-'"))
        }
        let doc = try YAMLReader.parse(data, file: path)
        var p = MigrationParser(file: path)
        let (description, steps) = try p.parseRoot(doc.root)
        if !p.diagnostics.isEmpty { throw InputError(p.diagnostics) }
        return Migration(version: version, name: name, fileName: fileName, path: path,
                         checksum: SHA256.hex(SumFile.normalizedText(of: doc.root)), description: description, steps: steps)
    }
}

/// Turns a migration file's YAML nodes into steps, collecting every problem it finds.
struct MigrationParser {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    func loc(_ n: YAMLNode) -> SourceLocation { n.location(in: file) }

    mutating func error(_ rule: RuleInfo, _ message: String, _ node: YAMLNode, fix: String? = nil) {
        diagnostics.append(.error(rule.code, message, at: loc(node), fix: fix))
    }

    mutating func parseRoot(_ root: YAMLNode?) throws(InputError) -> (String?, [MigrationStep]) {
        guard let root, let pairs = root.mapping else {
            let at = root.map(loc) ?? SourceLocation(file: file, line: 1, column: 1)
            throw InputError(.error(InputRules.wrongKind.code, "a migration file is a mapping with `steps:` (found \(root?.kindName ?? "an empty file"))", at: at,
                                    fix: "start the file with `steps:` and a list of steps; see docs/migrations.md"))
        }
        var description: String?
        var stepsNode: YAMLNode?
        for pair in pairs {
            switch pair.name {
            case "description": description = pair.value.scalar
            case "steps": stepsNode = pair.value
            default: error(StoreRules.invalidStep, "unknown key '\(pair.name)' in a migration file; it has `description` and `steps`", pair.key)
            }
        }
        guard let stepsNode else {
            throw InputError(.error(InputRules.missingKey.code, "the migration has no `steps:`", at: loc(root), fix: "add `steps:` with a list of steps"))
        }
        guard let items = stepsNode.sequence else {
            throw InputError(.error(InputRules.wrongKind.code, "`steps` is a list of steps (found \(stepsNode.kindName))", at: loc(stepsNode)))
        }
        var steps: [MigrationStep] = []
        for item in items {
            if let s = parseStep(item) { steps.append(s) }
        }
        return (description, steps)
    }

    mutating func parseStep(_ node: YAMLNode) -> MigrationStep? {
        guard let pairs = node.mapping, pairs.count == 1, let pair = pairs.first else {
            error(StoreRules.invalidStep, "a step is a mapping with one key, the step's kind (like `addField:`); found \(node.kindName)\(node.mapping.map { " with \($0.count) keys" } ?? "")", node)
            return nil
        }
        let kind = pair.name
        guard MigrationStep.kindNames.contains(kind) else {
            let suggestion = Suggest.closest(to: kind, in: MigrationStep.kindNames)
            error(StoreRules.unknownStep, "unknown step '\(kind)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), pair.key,
                  fix: "the steps are " + MigrationStep.kindNames.joined(separator: ", "))
            return nil
        }
        var args = Args(node: pair.value, kind: kind, parser: self)
        let action = args.action()
        diagnostics = args.parser.diagnostics
        guard let action, args.ok else { return nil }
        return MigrationStep(action, location: loc(pair.key))
    }
}

/// The arguments of one step: a mapping read key by key, with every problem reported.
private struct Args {
    let node: YAMLNode
    let kind: String
    var parser: MigrationParser
    var used: Set<String> = []
    var ok = true

    init(node: YAMLNode, kind: String, parser: MigrationParser) {
        self.node = node
        self.kind = kind
        self.parser = parser
    }

    var pairs: [YAMLPair] { node.mapping ?? [] }

    mutating func fail(_ rule: RuleInfo, _ message: String, _ at: YAMLNode, fix: String? = nil) {
        ok = false
        parser.error(rule, message, at, fix: fix)
    }

    mutating func value(_ key: String) -> YAMLNode? {
        used.insert(key)
        return pairs.first { $0.name == key }?.value
    }

    mutating func string(_ key: String, required: Bool = true) -> String? {
        guard let v = value(key) else {
            if required { fail(StoreRules.invalidStep, "`\(kind)` needs `\(key):`", node) }
            return nil
        }
        guard let s = v.scalar, !v.isNull else {
            fail(StoreRules.invalidStep, "`\(key)` of `\(kind)` is a name (found \(v.kindName))", v)
            return nil
        }
        return s
    }

    /// A record type or field name must be a CloudKit name: it reaches the store's SQL as a
    /// JSON path and index name. Source: CloudKit Console, "Creating a record type"; CKRecord
    /// key names (developer.apple.com/documentation/cloudkit/ckrecord).
    /// CloudKit's name grammar (`CloudKitRules`), checked where a migration names a record
    /// type or field, so a name no CloudKit container could hold never reaches the store.
    mutating func cloudKitName(_ name: String, _ what: String, _ at: YAMLNode, of type: String? = nil) {
        let violation = type.map { CloudKitRules.fieldNameViolation(name, inType: $0) } ?? CloudKitRules.recordTypeNameViolation(name)
        guard let v = violation else { return }
        fail(InvalidNameRule.info, v.message, at, fix: v.fix)
    }

    mutating func bool(_ key: String) -> Bool {
        guard let v = value(key) else { return false }
        switch v.scalar {
        case "true": return true
        case "false": return false
        default:
            fail(StoreRules.invalidStep, "`\(key)` is true or false (found \(v.scalar.map { "'\($0)'" } ?? v.kindName))", v)
            return false
        }
    }

    mutating func names(_ v: YAMLNode, what: String) -> [(String, YAMLNode)] {
        if let s = v.scalar, !v.isNull { return [(s, v)] }
        guard let items = v.sequence else {
            fail(StoreRules.invalidStep, "\(what) is a list (found \(v.kindName))", v)
            return []
        }
        var out: [(String, YAMLNode)] = []
        for i in items {
            guard let s = i.scalar else { fail(StoreRules.invalidStep, "\(what) holds names (found \(i.kindName))", i); continue }
            out.append((s, i))
        }
        return out
    }

    /// Reports keys the step does not have.
    mutating func finish() {
        for p in pairs where !used.contains(p.name) {
            let suggestion = Suggest.closest(to: p.name, in: Array(used))
            fail(StoreRules.invalidStep, "`\(kind)` has no key '\(p.name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), p.key)
        }
    }

    mutating func action() -> MigrationStep.Action? {
        if kind == "removeRecordType", let s = node.scalar, !node.isNull { return .removeRecordType(s) }
        if kind == "addRole", let s = node.scalar, !node.isNull { return .addRole(s) }
        if kind == "removeSubscription", let s = node.scalar, !node.isNull { return .removeSubscription(s) }
        guard node.mapping != nil else {
            fail(StoreRules.invalidStep, "the arguments of `\(kind)` are a mapping (found \(node.kindName))", node, fix: "see docs/migrations.md for `\(kind)`")
            return nil
        }
        defer { finish() }
        switch kind {
        case "addZone":
            guard let name = string("name") else { return nil }
            var db = Database.private
            if let d = string("database", required: false) {
                if let x = Database(rawValue: d) { db = x } else { fail(StoreRules.invalidStep, "unknown database '\(d)'; use public, private or shared", value("database")!) }
            }
            var caps = Set<ZoneCapability>()
            if let c = value("capabilities") {
                for (n, at) in names(c, what: "`capabilities`") {
                    if let cap = ZoneCapability(rawValue: n) { caps.insert(cap) } else {
                        fail(StoreRules.invalidStep, "unknown zone capability '\(n)'; use " + ZoneCapability.allCases.map(\.rawValue).joined(separator: ", "), at)
                    }
                }
            }
            return .addZone(Zone(name: name, database: db, capabilities: caps, origin: Origin(parser.loc(node))))
        case "addRole":
            guard let name = string("name") else { return nil }
            return .addRole(name)
        case "removeSubscription":
            guard let id = string("id") else { return nil }
            return .removeSubscription(id)
        case "addSubscription":
            guard let id = string("id"), let kindName = string("type") else { return nil }
            guard let k = Subscription.Kind(rawValue: kindName) else {
                fail(StoreRules.invalidStep, "unknown subscription type '\(kindName)'; use query, zone or database", value("type")!)
                return nil
            }
            var s = Subscription(id: id, kind: k, origin: Origin(parser.loc(node)))
            if let d = string("database", required: false) {
                if let x = Database(rawValue: d) { s.database = x } else { fail(StoreRules.invalidStep, "unknown database '\(d)'; use public, private or shared", value("database")!) }
            }
            s.recordType = string("recordType", required: false)
            s.predicate = string("predicate", required: false)
            s.zone = string("zone", required: false)
            if let f = value("firesOn") {
                for (n, at) in names(f, what: "`firesOn`") {
                    if let e = Subscription.Event(rawValue: n) { s.firesOn.insert(e) } else {
                        fail(StoreRules.invalidStep, "unknown event '\(n)'; use create, update or delete", at)
                    }
                }
            }
            if let keys = value("desiredKeys") { s.desiredKeys = names(keys, what: "`desiredKeys`").map(\.0) }
            return .addSubscription(s)
        case "addRecordType":
            guard let name = string("name"), let nameNode = value("name") else { return nil }
            cloudKitName(name, "record type", nameNode)
            // The rest of the mapping is a record type as a schema file writes it.
            var body: [YAMLPair] = []
            var decoder = SchemaDecoder(file: parser.file)
            for p in pairs where p.name != "name" {
                used.insert(p.name)
                if SchemaDecoder.recordTypeKeys.contains(p.name) {
                    body.append(p)
                    if p.name == "fields" { for f in p.value.mapping ?? [] { cloudKitName(f.name, "field", f.key, of: name) } }
                    continue
                }
                decoder.d.report(InputRules.unknownKey, "unknown key '\(p.name)' in `addRecordType`\(Suggest.phrase(for: p.name, in: ["name"] + SchemaDecoder.recordTypeKeys))",
                                 at: p.key, fix: "allowed keys: name, " + SchemaDecoder.recordTypeKeys.joined(separator: ", "))
            }
            let t = decoder.recordType(name: name, at: nameNode, pairs: body)
            return adopt(decoder) ? .addRecordType(t) : nil
        case "addField":
            guard let rt = string("recordType"), let name = string("name"), let nameNode = value("name") else { return nil }
            cloudKitName(name, "field", nameNode, of: rt)
            var spec: [YAMLPair] = []
            for p in pairs where p.name != "recordType" && p.name != "name" { spec.append(p); used.insert(p.name) }
            var decoder = SchemaDecoder(file: parser.file)
            let f = decoder.field(name: name, at: nameNode, pairs: spec, in: rt)
            guard adopt(decoder), let f else { return nil }
            return .addField(recordType: rt, field: f)
        case "addIndex", "removeIndex":
            guard let rt = string("recordType"), let f = string("field"), let k = string("kind") else { return nil }
            guard let kind = IndexKind(rawValue: k) else {
                fail(StoreRules.invalidStep, "unknown index kind '\(k)'; use queryable, searchable or sortable", value("kind")!)
                return nil
            }
            return self.kind == "addIndex" ? .addIndex(recordType: rt, field: f, kind: kind) : .removeIndex(recordType: rt, field: f, kind: kind)
        case "deprecate":
            guard let rt = string("recordType") else { return nil }
            return .deprecate(recordType: rt, field: string("field", required: false))
        case "setGrants":
            guard let rt = string("recordType") else { return nil }
            guard let g = value("grants") else { fail(StoreRules.invalidStep, "`setGrants` needs `grants:`", node); return nil }
            return .setGrants(recordType: rt, grants: grants(g))
        case "removeField":
            guard let rt = string("recordType"), let f = string("field") else { return nil }
            return .removeField(recordType: rt, field: f)
        case "removeRecordType":
            guard let n = string("name") else { return nil }
            return .removeRecordType(n)
        case "backfill":
            guard let rt = string("recordType"), let f = string("field") else { return nil }
            let overwrite = bool("overwrite")
            let v = value("value"), e = value("expression")
            switch (v, e) {
            case (let v?, nil):
                if let items = v.sequence {
                    return .backfill(recordType: rt, field: f, value: .list(items.compactMap(\.scalar)), overwrite: overwrite)
                }
                guard case .scalar(let s, let style) = v.kind, !v.isNull else {
                    fail(StoreRules.invalidStep, "a backfill `value` is a constant (found \(v.kindName))", v, fix: "to unset a field, there is no backfill; use `expression:` for computed values")
                    return nil
                }
                return .backfill(recordType: rt, field: f, value: .constant(s, quoted: style != .plain), overwrite: overwrite)
            case (nil, let e?):
                guard let s = e.scalar, !e.isNull else { fail(StoreRules.invalidStep, "`expression` is text (found \(e.kindName))", e); return nil }
                return .backfill(recordType: rt, field: f, value: .expression(s), overwrite: overwrite)
            default:
                fail(StoreRules.invalidStep, "`backfill` needs exactly one of `value:` and `expression:`", node)
                return nil
            }
        case "copy":
            guard let rt = string("recordType"), let from = string("from"), let to = string("to") else { return nil }
            return .copy(recordType: rt, from: from, to: to)
        default:
            return nil
        }
    }

    /// Takes the schema decoder's findings as the step's own; false when any is an error.
    mutating func adopt(_ decoder: SchemaDecoder) -> Bool {
        parser.diagnostics += decoder.d.diagnostics
        if decoder.d.hasErrors { ok = false }
        return !decoder.d.hasErrors
    }

    mutating func grants(_ v: YAMLNode) -> [Grant] {
        guard let gp = v.mapping else {
            fail(StoreRules.invalidStep, "`grants` maps a role to its permissions (found \(v.kindName))", v)
            return []
        }
        var out: [Grant] = []
        for p in gp {
            var perms = Set<Permission>()
            for (n, at) in names(p.value, what: "a grant") {
                if let perm = Permission(rawValue: n) { perms.insert(perm) } else {
                    fail(StoreRules.invalidStep, "unknown permission '\(n)'; use read, create or write", at)
                }
            }
            out.append(Grant(role: p.name, permissions: perms, origin: Origin(parser.loc(p.key))))
        }
        return out
    }
}
