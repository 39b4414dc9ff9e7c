/// Writes a schema in the canonical YAML form of `docs/schema-format.md`.
public enum SchemaEmitter {
    /// The canonical text of a schema; `comments` are put back where they were.
    public static func emit(_ schema: Schema, comments: [SourceComment] = []) -> String {
        // Replaced by the full emitter in the foundation work (in progress).
        String(describing: schema)
    }
}

/// A `#` comment read from a YAML source, kept so that `fmt` can write it back.
public struct SourceComment: Sendable, Hashable {
    public var line: Int
    public var text: String
    /// True when it follows code on its line.
    public var isTrailing: Bool
    public init(line: Int, text: String, isTrailing: Bool) { self.line = line; self.text = text; self.isTrailing = isTrailing }
}
