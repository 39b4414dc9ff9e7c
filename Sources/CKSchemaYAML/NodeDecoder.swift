import CKSchemaDiagnostics
import CKSchemaModel

/// Reads YAML nodes into values, collecting every problem as a diagnostic instead of
/// stopping at the first. Shared by the schema, config and migration decoders.
public struct NodeDecoder {
    public let file: String
    public private(set) var diagnostics: [Diagnostic] = []

    public init(file: String) { self.file = file }

    public var hasErrors: Bool { diagnostics.contains(atLeast: .error) }

    public mutating func report(_ rule: RuleInfo, _ message: String, at node: YAMLNode, fix: String? = nil, fixIt: FixIt? = nil) {
        diagnostics.append(Diagnostic(rule: rule, message, at: node.location(in: file), fix: fix, fixIt: fixIt))
    }

    /// A fix-it that replaces a scalar's text with `replacement`, or nil unless it is exact:
    /// the file must hold the scalar's text as it is on one line (a plain scalar, or a quoted
    /// one without escapes, whose quotes stay; libyaml's marks give its width), and the
    /// replacement must read back as itself there (a word: letters, digits, `_`, `<`, `>`).
    public func fixIt(replacing node: YAMLNode, with replacement: String) -> FixIt? {
        guard node.shape == .scalar, let width = node.sourceWidth, let first = replacement.unicodeScalars.first,
              first.properties.isAlphabetic, first.isASCII,
              replacement.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_<>".unicodeScalars.contains($0)) })
        else { return nil }
        let n = node.text.unicodeScalars.count
        let start = location(node)
        switch node.style {
        case .plain where width == n && n > 0:
            return FixIt(replacing: n, at: start, with: replacement)
        case .singleQuoted where width == n + 2, .doubleQuoted where width == n + 2:
            return FixIt(replacing: n, at: SourceLocation(file: file, line: start.line, column: start.column + 1), with: replacement)
        default:
            return nil
        }
    }

    /// The fix-it for a did-you-mean: `word` replaced by `suggestion` when there is one.
    public func fixIt(replacing node: YAMLNode, with suggestion: String?) -> FixIt? {
        suggestion.flatMap { fixIt(replacing: node, with: $0) }
    }

    public mutating func append(_ d: Diagnostic) { diagnostics.append(d) }

    /// The pairs of a mapping node, reporting keys not in `allowed` (with a did-you-mean).
    /// Reports and returns nil when the node is not a mapping.
    public mutating func mapping(_ node: YAMLNode, what: @autoclosure () -> String, allowed: [String]? = nil) -> [YAMLPair]? {
        pairs(node, what: what(), allowed: allowed).map(Array.init)
    }

    /// As `mapping`, without building an array of pairs.
    public mutating func pairs(_ node: YAMLNode, what: @autoclosure () -> String, allowed: [String]? = nil) -> YAMLNode.Pairs? {
        guard node.shape == .mapping else {
            report(InputRules.wrongKind, "\(what()) must be a mapping, found \(node.kindName)", at: node)
            return nil
        }
        // A key is a name: `? {a: b}` or `? [a]` (YAML's complex keys) has none, and was read
        // as '' (two of them made `fmt` write a duplicate key; found by FuzzFmt).
        for p in node.pairs where p.key.shape != .scalar {
            report(InputRules.wrongKind, "a key in \(what()) must be a name, found \(p.key.kindName)", at: p.key,
                   fix: "write the key as a plain name, without '?'")
        }
        if let allowed {
            for p in node.pairs where !allowed.contains(p.name) {
                let suggestion = Suggest.closest(to: p.name, in: allowed)
                // Renaming the key to one the mapping has already would make a duplicate key.
                let free = suggestion.flatMap { s in node.pairs.contains { $0.name == s } ? nil : s }
                report(InputRules.unknownKey, "unknown key '\(p.name)' in \(what())\(Suggest.phrase(for: p.name, in: allowed))", at: p.key,
                       fix: "allowed keys: " + allowed.joined(separator: ", "), fixIt: fixIt(replacing: p.key, with: free))
            }
        }
        return node.pairs
    }

    /// A non-empty scalar string.
    public mutating func string(_ node: YAMLNode, what: @autoclosure () -> String) -> String? {
        guard let s = node.scalar, !node.isNull else {
            report(InputRules.wrongKind, "\(what()) must be a string, found \(node.kindName)", at: node)
            return nil
        }
        return s
    }

    public mutating func bool(_ node: YAMLNode, what: @autoclosure () -> String) -> Bool? {
        if case .scalar(let s, .plain) = node.kind {
            switch s {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: break
            }
        }
        report(InputRules.invalidValue, "\(what()) must be true or false, found '\(node.scalar ?? node.kindName)'", at: node)
        return nil
    }

    public mutating func int(_ node: YAMLNode, what: @autoclosure () -> String) -> Int? {
        if case .scalar(let s, .plain) = node.kind, let v = Int(s) { return v }
        report(InputRules.invalidValue, "\(what()) must be a whole number, found '\(node.scalar ?? node.kindName)'", at: node)
        return nil
    }

    /// A list of scalars; a single scalar is taken as a list of one.
    public mutating func stringList(_ node: YAMLNode, what: @autoclosure () -> String) -> [(String, YAMLNode)] {
        if let items = node.sequence {
            var out: [(String, YAMLNode)] = []
            for item in items {
                if let s = string(item, what: "an item of \(what())") { out.append((s, item)) }
            }
            return out
        }
        if node.isNull { return [] }
        if let s = node.scalar { return [(s, node)] }
        report(InputRules.wrongKind, "\(what()) must be a list, found \(node.kindName)", at: node)
        return []
    }

    /// A value of a raw-value enum, reporting the allowed values and a did-you-mean.
    public mutating func enumValue<E: RawRepresentable & CaseIterable>(_ node: YAMLNode, what: @autoclosure () -> String, as: E.Type) -> E? where E.RawValue == String {
        guard let s = string(node, what: what()) else { return nil }
        if let v = E(rawValue: s) { return v }
        let names = E.allCases.map(\.rawValue)
        report(InputRules.invalidValue, "'\(s)' is not a valid \(what())\(Suggest.phrase(for: s, in: names))", at: node,
               fix: "use one of: " + names.joined(separator: ", "), fixIt: fixIt(replacing: node, with: Suggest.closest(to: s, in: names)))
        return nil
    }

    /// A list of raw-value enum values (a single value counts as a list of one), each
    /// unknown one reported with the allowed values and a did-you-mean.
    public mutating func enumSet<E: RawRepresentable & CaseIterable & Hashable>(_ node: YAMLNode, what: @autoclosure () -> String, as: E.Type) -> Set<E> where E.RawValue == String {
        var out = Set<E>()
        for (name, item) in stringList(node, what: "a list of \(what())s") {
            if let v = E(rawValue: name) { out.insert(v); continue }
            let all = E.allCases.map(\.rawValue)
            report(InputRules.invalidValue, "'\(name)' is not a \(what())\(Suggest.phrase(for: name, in: all))", at: item,
                   fix: "use one of: " + all.joined(separator: ", "), fixIt: fixIt(replacing: item, with: Suggest.closest(to: name, in: all)))
        }
        return out
    }

    public func location(_ node: YAMLNode) -> SourceLocation { node.location(in: file) }
}
