import CKSchemaModel

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

    package init() {}
}

extension ValidationSummary {
    /// True when the run could not do its job: a file could not be read or a record is malformed.
    public var failed: Bool { unreadableFiles > 0 || malformedRecords > 0 }

    /// True when there are findings at or above `severity`.
    public func fails(on severity: Severity) -> Bool {
        severity == .warning ? errors + warnings > 0 : errors > 0
    }

    /// `1200 records, 3 errors, 1 warning`, and why it stopped early: the text report's closing line.
    public func line(maxErrors: Int?) -> String {
        func n(_ count: Int, _ word: String) -> String { "\(count) \(word)" + (count == 1 ? "" : "s") }
        var parts = [n(records, "record")]
        if errors > 0 { parts.append(n(errors, "error")) }
        if warnings > 0 { parts.append(n(warnings, "warning")) }
        if notes > 0 { parts.append(n(notes, "note")) }
        if stoppedEarly { parts.append("stopped after --max-errors \(maxErrors ?? 0)") }
        return parts.joined(separator: ", ")
    }
}
