/// Progress of a run, for a terminal's progress line.
public struct ValidationProgress: Sendable {
    public var records: Int
    public var bytes: Int
    public var seconds: Double
}

/// What a validation run saw, besides its diagnostics.
public struct ValidationSummary: Sendable {
    public var files = 0
    public var records = 0
    public var bytes = 0
    public var errors = 0
    public var warnings = 0
    public var notes = 0
    /// Records that could not be parsed (CK400): malformed input.
    public var malformedRecords = 0
    /// Files that could not be opened or read at all.
    public var unreadableFiles = 0
    /// True when `maxErrors` stopped the run before the end.
    public var stoppedEarly = false
    /// In development: the schema change CloudKit would make from these records.
    public var inferred: SchemaInference = SchemaInference()
}
