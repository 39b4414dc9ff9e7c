/// A YAML node with the place it starts, as the schema decoder needs it.
public struct YAMLNode: Sendable {
    public enum ScalarStyle: Sendable, Hashable { case plain, singleQuoted, doubleQuoted, literal, folded }

    public enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var kind: Kind
    /// 1-based line and column of the node's first character.
    public var line: Int
    public var column: Int

    public init(_ kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    public var scalar: String? { if case .scalar(let s, _) = kind { return s }; return nil }
    public var sequence: [YAMLNode]? { if case .sequence(let s) = kind { return s }; return nil }
    public var mapping: [YAMLPair]? { if case .mapping(let m) = kind { return m }; return nil }

    /// A plain `~`, `null` or empty scalar: YAML's null.
    public var isNull: Bool {
        if case .scalar(let s, .plain) = kind { return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL" }
        return false
    }

    /// What the node is, for messages: "a mapping", "a list", "a scalar".
    public var kindName: String {
        switch kind {
        case .scalar: isNull ? "nothing" : "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }

    public func location(in file: String) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
}

/// One key and its value in a mapping.
public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode

    /// The key's text (keys in schema files are scalars; others have an empty name).
    public var name: String { key.scalar ?? "" }
}

/// A parsed YAML file: its root node, and the lines where multi-line scalars stand,
/// which the comment scanner must not read as comments.
public struct YAMLDocument: Sendable {
    public var file: String
    public var root: YAMLNode?
    public var multilineScalarLines: [ClosedRange<Int>]
}
