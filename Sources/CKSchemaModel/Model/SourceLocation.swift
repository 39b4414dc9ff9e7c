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
///
/// Stored in 24 bytes (the file's name, 32-bit line and column) rather than an optional
/// `SourceLocation`'s 33: every field of a schema has one, and 80,000 of them were most of
/// what loading a large schema touched (Benchmarks/RESULTS.md). Lines and columns past
/// 2^31 (no file under the 32 MB limit has them) are clamped.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    private var file: String?
    private var line: Int32 = 0
    private var column: Int32 = 0

    public init(_ location: SourceLocation? = nil) { self.location = location }

    /// An origin at a 1-based line and column of `file`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = Int32(clamping: line)
        self.column = Int32(clamping: column)
    }

    /// The place, or nil when unknown.
    public var location: SourceLocation? {
        get { file.map { SourceLocation(file: $0, line: Int(line), column: Int(column)) } }
        set {
            file = newValue?.file
            line = Int32(clamping: newValue?.line ?? 0)
            column = Int32(clamping: newValue?.column ?? 0)
        }
    }

    /// The line, or nil when the place is unknown (read without making a `SourceLocation`).
    package var knownLine: Int? { file == nil ? nil : Int(line) }

    public static let unknown = Origin()

    public static func == (lhs: Origin, rhs: Origin) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    public var description: String { location?.description ?? "<unknown>" }
}
