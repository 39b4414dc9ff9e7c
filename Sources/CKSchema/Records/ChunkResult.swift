/// A diagnostic found while checking one chunk of records, with positions relative to the
/// chunk; the validator turns it into a `Diagnostic` once it knows where the chunk starts.
struct PendingDiagnostic: Sendable {
    var code: String
    var severity: Severity
    /// Index of the record within its chunk (0-based).
    var recordIndex: Int
    /// Line within the chunk (0-based) and 1-based column of the offending byte.
    var line: Int
    var column: Int
    /// An absolute line (YAML records carry their own).
    var absoluteLine: Bool = false
    var recordName: String?
    var field: String?
    var message: String
    var fix: String?
}

/// What the batch checks need of one record (kept only with `--batch`).
struct BatchEntry: Sendable {
    var recordIndex: Int
    var line: Int
    var absoluteLine: Bool
    var size: Int
    var name: String?
    var parent: String?
    var parentLine: Int
    var parentColumn: Int
    /// The record's type, so references to it can be checked once every record is seen.
    var recordType: String?
}

/// A reference whose target's type is checked after the last file (`--batch` only):
/// the schema says what it must point at, the files say what the target is.
struct ReferenceCheck: Sendable {
    var target: String
    var expectedType: String
    var recordIndex: Int
    var line: Int
    var column: Int
    var absoluteLine: Bool
    var recordName: String?
    var field: String
}

/// A field CloudKit's development schema would add, as seen in one chunk.
struct InferredObservation: Sendable {
    var recordType: String
    var field: String?
    var type: FieldType?
    var isEncrypted: Bool
    var isNewType: Bool
    var recordIndex: Int
    var line: Int
    var column: Int
    var absoluteLine: Bool
    var recordName: String?
}

/// The result of checking one chunk of input: its diagnostics in input order and counts.
struct ChunkResult: Sendable {
    var diagnostics: [PendingDiagnostic] = []
    var lines = 0
    var records = 0
    var syntaxErrors = 0
    var batch: [BatchEntry] = []
    var references: [ReferenceCheck] = []
    var inferred: [InferredObservation] = []
    /// Keys of `inferred` already recorded in this chunk (type, field, type description).
    var inferredSeen: Set<String> = []
}
