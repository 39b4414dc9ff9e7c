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
        let data = try YAMLReader.readFile(path: path, limit: YAMLReader.maxFileSize)
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
    mutating func cloudKitName(_ name: String, _ what: String, _ at: YAMLNode) {
        guard !StoreName.isSafe(name) else { return }
        fail(InvalidNameRule.info, "\(what) name '\(name)' is not valid: it must start with a letter, then only letters, digits and '_' (at most 255)", at,
             fix: "rename the \(what)")
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
        case "addRecordType":
            guard let name = string("name") else { return nil }
            cloudKitName(name, "record type", value("name")!)
            var t = RecordType(name: name, origin: Origin(parser.loc(node)))
            t.zone = string("zone", required: false)
            if let d = string("database", required: false) {
                if let x = Database(rawValue: d) { t.database = x } else { fail(StoreRules.invalidStep, "unknown database '\(d)'; use public, private or shared", value("database")!) }
            }
            t.description = string("description", required: false)
            t.isDeprecated = bool("deprecated")
            if let req = value("requires") {
                for (n, at) in names(req, what: "`requires`") {
                    if let cap = ZoneCapability(rawValue: n) { t.requiredCapabilities.insert(cap) } else {
                        fail(StoreRules.invalidStep, "unknown zone capability '\(n)'; use " + ZoneCapability.allCases.map(\.rawValue).joined(separator: ", "), at)
                    }
                }
            }
            if let fields = value("fields") {
                guard let fp = fields.mapping else {
                    fail(StoreRules.invalidStep, "`fields` is a mapping of field name to type (found \(fields.kindName))", fields)
                    return nil
                }
                for p in fp {
                    cloudKitName(p.name, "field", p.key)
                    if let f = field(name: p.name, spec: p.value) { t.fields.append(f) }
                }
            }
            if let system = value("system") {
                for p in system.mapping ?? [] {
                    guard let sf = SystemField(rawValue: p.name) else {
                        fail(StoreRules.invalidStep, "'\(p.name)' is not a system field; they are " + SystemField.allCases.map(\.rawValue).joined(separator: ", "), p.key)
                        continue
                    }
                    let set = indexSet(p.value)
                    if !set.isEmpty { t.systemIndexes[sf] = set }
                }
            }
            if let g = value("grants") { t.grants = grants(g) }
            return .addRecordType(t)
        case "addField":
            guard let rt = string("recordType"), let name = string("name") else { return nil }
            cloudKitName(name, "field", value("name")!)
            var spec: [YAMLPair] = []
            for p in pairs where p.name != "recordType" && p.name != "name" { spec.append(p); used.insert(p.name) }
            guard let f = field(name: name, pairs: spec, at: node) else { return nil }
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

    mutating func indexSet(_ v: YAMLNode) -> IndexSet {
        var s = IndexSet()
        for (n, at) in names(v, what: "`indexes`") {
            if let k = IndexKind(rawValue: n) { s.insert(k) } else {
                fail(StoreRules.invalidStep, "unknown index kind '\(n)'; use queryable, searchable or sortable", at)
            }
        }
        return s
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

    /// A field from `type` shorthand (`title: string`) or a mapping (`{ type: string, indexes: [queryable] }`).
    mutating func field(name: String, spec: YAMLNode) -> Field? {
        let at = Origin(parser.loc(spec))
        if let s = spec.scalar, !spec.isNull {
            guard let t = FieldType(parsing: s) else {
                fail(StoreRules.invalidStep, "unknown field type '\(s)' for '\(name)'", spec, fix: "use string, int64, double, bytes, timestamp, location, reference, asset or list<T>")
                return nil
            }
            return Field(name: name, type: t, origin: at)
        }
        guard let sp = spec.mapping else {
            fail(StoreRules.invalidStep, "field '\(name)' is a type or a mapping with `type:` (found \(spec.kindName))", spec)
            return nil
        }
        return field(name: name, pairs: sp, at: spec)
    }

    /// A field from the keys of a mapping (`type`, `encrypted`, `indexes`, ...); `spec` is where it is written.
    mutating func field(name: String, pairs sp: [YAMLPair], at spec: YAMLNode) -> Field? {
        let at = Origin(parser.loc(spec))
        var f: Field?
        var encrypted = false, deprecated = false
        var indexes = IndexSet()
        var to: String?, action: ReferenceAction?, description: String?
        for p in sp {
            switch p.name {
            case "type":
                guard let s = p.value.scalar, let t = FieldType(parsing: s) else {
                    fail(StoreRules.invalidStep, "unknown field type '\(p.value.scalar ?? p.value.kindName)' for '\(name)'", p.value,
                         fix: "use string, int64, double, bytes, timestamp, location, reference, asset or list<T>")
                    continue
                }
                f = Field(name: name, type: t, origin: at)
            case "encrypted": encrypted = p.value.scalar == "true"
            case "deprecated": deprecated = p.value.scalar == "true"
            case "indexes": indexes = indexSet(p.value)
            case "to": to = p.value.scalar
            case "action":
                action = p.value.scalar.flatMap(ReferenceAction.init(rawValue:))
                if action == nil { fail(StoreRules.invalidStep, "unknown reference action; use none or deleteSelf", p.value) }
            case "description": description = p.value.scalar
            default:
                fail(StoreRules.invalidStep, "field '\(name)' has no key '\(p.name)'; a field has type, encrypted, indexes, deprecated, to, action, description", p.key)
            }
        }
        guard var field = f else {
            fail(StoreRules.invalidStep, "field '\(name)' needs `type:`", spec)
            return nil
        }
        field.isEncrypted = encrypted
        field.isDeprecated = deprecated
        field.indexes = indexes
        field.referenceTarget = to
        field.referenceAction = action
        field.description = description
        return field
    }
}
