import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// The arguments of one step as its kind reads them: a mapping read key by key, every
/// problem reported at its node, and at the end every key the kind did not read.
struct StepArguments {
    let node: YAMLNode
    /// The step's key (`addField`), for messages.
    let kind: String
    let file: String
    /// The keys the kind takes (`MigrationStepKind.keys`).
    let known: [String]
    private(set) var diagnostics: [Diagnostic] = []
    private var used: Set<String> = []
    /// False once any problem was reported: the step is not built.
    private(set) var ok = true

    init(node: YAMLNode, kind: String, file: String, known: [String]) {
        self.node = node
        self.kind = kind
        self.file = file
        self.known = known
    }

    var pairs: [YAMLPair] { node.mapping ?? [] }

    func location(_ n: YAMLNode) -> SourceLocation { n.location(in: file) }
    var origin: Origin { Origin(location(node)) }

    mutating func fail(_ message: String, _ at: YAMLNode, fix: String? = nil) {
        fail(StoreRules.invalidStep, message, at, fix: fix)
    }

    mutating func fail(_ rule: RuleInfo, _ message: String, _ at: YAMLNode, fix: String? = nil) {
        ok = false
        diagnostics.append(.error(rule, message, at: location(at), fix: fix))
    }

    mutating func value(_ key: String) -> YAMLNode? {
        used.insert(key)
        return pairs.first { $0.name == key }?.value
    }

    /// Marks a key as read without reading it (a kind that passes keys on, like `addField`'s spec).
    mutating func markUsed(_ key: String) { used.insert(key) }

    mutating func string(_ key: String, required: Bool = true) -> String? {
        guard let v = value(key) else {
            if required { fail("`\(kind)` needs `\(key):`", node) }
            return nil
        }
        guard let s = v.scalar, !v.isNull else {
            fail("`\(key)` of `\(kind)` is a name (found \(v.kindName))", v)
            return nil
        }
        return s
    }

    /// A value from a fixed set (`database: private`); nil, after reporting, when it is not one.
    mutating func choice<T: RawRepresentable>(_ key: String, required: Bool = true, _ what: String, use: String) -> T? where T.RawValue == String {
        guard let s = string(key, required: required) else { return nil }
        if let v = T(rawValue: s) { return v }
        fail("unknown \(what) '\(s)'; use \(use)", value(key)!)
        return nil
    }

    /// A record type or field name must be a CloudKit name: it reaches the store's SQL as a
    /// JSON path and index name. CloudKit's name grammar (`CloudKitRules`) is checked where a
    /// migration names a record type or field, so a name no CloudKit container could hold
    /// never reaches the store. Source: CloudKit Console, "Creating a record type"; CKRecord
    /// key names (developer.apple.com/documentation/cloudkit/ckrecord).
    mutating func cloudKitName(_ name: String, _ at: YAMLNode, of type: String? = nil) {
        let violation = type.map { CloudKitRules.fieldNameViolation(name, inType: $0) } ?? CloudKitRules.recordTypeNameViolation(name)
        guard let v = violation else { return }
        fail(CloudKitRule.invalidName.info, v.message, at, fix: v.fix)
    }

    mutating func bool(_ key: String) -> Bool {
        guard let v = value(key) else { return false }
        switch v.scalar {
        case "true": return true
        case "false": return false
        default:
            fail("`\(key)` is true or false (found \(v.scalar.map { "'\($0)'" } ?? v.kindName))", v)
            return false
        }
    }

    /// A name or a list of names, each with its node.
    mutating func names(_ v: YAMLNode, what: String) -> [(String, YAMLNode)] {
        if let s = v.scalar, !v.isNull { return [(s, v)] }
        guard let items = v.sequence else {
            fail("\(what) is a list (found \(v.kindName))", v)
            return []
        }
        var out: [(String, YAMLNode)] = []
        for i in items {
            guard let s = i.scalar else { fail("\(what) holds names (found \(i.kindName))", i); continue }
            out.append((s, i))
        }
        return out
    }

    /// The values of a list of names from a fixed set, each unknown one reported.
    mutating func set<T: RawRepresentable & Hashable>(_ key: String, _ what: String, use: String) -> Set<T> where T.RawValue == String {
        guard let v = value(key) else { return [] }
        var out = Set<T>()
        for (n, at) in names(v, what: "`\(key)`") {
            if let x = T(rawValue: n) { out.insert(x) } else { fail("unknown \(what) '\(n)'; use \(use)", at) }
        }
        return out
    }

    /// `grants:` as a schema file writes it: role to permissions.
    mutating func grants(_ v: YAMLNode) -> [Grant] {
        guard let gp = v.mapping else {
            fail("`grants` maps a role to its permissions (found \(v.kindName))", v)
            return []
        }
        var out: [Grant] = []
        for p in gp {
            var perms = Set<Permission>()
            for (n, at) in names(p.value, what: "a grant") {
                if let perm = Permission(rawValue: n) { perms.insert(perm) } else { fail("unknown permission '\(n)'; use read, create or write", at) }
            }
            out.append(Grant(role: p.name, permissions: perms, origin: Origin(location(p.key))))
        }
        return out
    }

    /// Takes the schema decoder's findings as the step's own; false when any is an error.
    mutating func adopt(_ decoder: SchemaDecoder) -> Bool {
        diagnostics += decoder.d.diagnostics
        if decoder.d.hasErrors { ok = false }
        return !decoder.d.hasErrors
    }

    /// Reports keys the kind neither read nor takes.
    mutating func finish() {
        for p in pairs where !used.contains(p.name) && !known.contains(p.name) {
            let suggestion = Suggest.closest(to: p.name, in: known + used)
            fail("`\(kind)` has no key '\(p.name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), p.key)
        }
    }

    /// Builds a step of kind `K` from its node: the scalar form when the kind has one, else
    /// the mapping, with every unread key reported.
    static func parse<K: MigrationStepKind>(_ k: K.Type, node: YAMLNode, file: String) -> (K?, [Diagnostic]) {
        var args = StepArguments(node: node, kind: K.key, file: file, known: K.keys)
        if let s = node.scalar, !node.isNull, let step = K.parse(scalar: s, &args) { return (step, args.diagnostics) }
        guard node.mapping != nil else {
            args.fail("the arguments of `\(K.key)` are a mapping (found \(node.kindName))", node, fix: "see docs/migrations.md for `\(K.key)`")
            return (nil, args.diagnostics)
        }
        let step = K.parse(&args)
        args.finish()
        return (args.ok ? step : nil, args.diagnostics)
    }
}
