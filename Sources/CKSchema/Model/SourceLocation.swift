/// A place in a source file: 1-based line and column, as editors and Xcode count them.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file's path as the user gave it (or `<stdin>`).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// Where a model element was written. Never part of a schema's identity: two
/// elements that differ only in where they came from are equal, so that a schema
/// loaded from YAML equals the same schema loaded from `.ckdb`.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation?

    public init(_ location: SourceLocation? = nil) { self.location = location }

    public static let unknown = Origin()

    public static func == (lhs: Origin, rhs: Origin) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    public var description: String { location?.description ?? "<unknown>" }
}
