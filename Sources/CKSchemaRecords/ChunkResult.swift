import CKSchemaModel

/// A diagnostic found while checking one chunk of records, with positions relative to the
/// chunk; the validator turns it into a `Diagnostic` once it knows where the chunk starts.
package struct PendingDiagnostic: Sendable {
    package var code: String
    package var severity: Severity
    /// Index of the record within its chunk (0-based).
    package var recordIndex: Int
    /// Line within the chunk (0-based) and 1-based column of the offending byte.
    package var line: Int
    package var column: Int
    /// An absolute line (YAML records carry their own).
    var absoluteLine: Bool = false
    package var recordName: String?
    package var field: String?
    package var message: String
    package var fix: String?
}

/// What the batch checks need of one record (kept only with `--batch`).
package struct BatchEntry: Sendable {
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
    /// The record carries Web Services type tags (`STRING`, `INT64_LIST`): it is headed for a
    /// records/modify request, which takes at most 200 operations.
    var webServices = false
}

/// Where in a chunk a value of one record is: what each finding kept for after the chunk
/// (a reference's target, a deleteSelf count, an asset file) needs to be named and located.
package struct RecordPlace: Sendable {
    /// Index of the record within its chunk (0-based).
    package var recordIndex: Int
    /// Line within the chunk (0-based, or absolute when `absoluteLine`) and 1-based column.
    package var line: Int
    package var column: Int
    var absoluteLine: Bool
    package var recordName: String?
    package var field: String

    package init(recordIndex: Int, line: Int, column: Int, absoluteLine: Bool, recordName: String?, field: String) {
        self.recordIndex = recordIndex
        self.line = line
        self.column = column
        self.absoluteLine = absoluteLine
        self.recordName = recordName
        self.field = field
    }
}

/// A reference with the deleteSelf action, counted against its target over the whole input
/// (CKRecord.Reference: at most 750 such references to one target).
package struct DeleteSelfReference: Sendable {
    /// The target's zone and record name, joined by U+0001 (a reference stays in its zone).
    package var target: String
    package var targetName: String
    package var place: RecordPlace

    /// `zone`, U+0001 and `name` as one string, made in one allocation from the bytes (the
    /// form of `target`, and of a referrer: the record's zone and its own name).
    static func key(zone: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: zone.count + 1 + name.count) { out in
            let base = out.baseAddress!
            if let z = zone.baseAddress { base.update(from: z, count: zone.count) }
            base[zone.count] = 1
            if let n = name.baseAddress { (base + zone.count + 1).update(from: n, count: name.count) }
            return zone.count + 1 + name.count
        }
    }
}

/// An asset field that names a local file (the plain shape), checked against the 50 MB limit
/// by the layer that knows which file the record came from.
package struct AssetPath: Sendable {
    package var path: String
    package var place: RecordPlace
}

/// A reference whose target's type is checked after the last file (`--batch` only):
/// the schema says what it must point at, the files say what the target is.
package struct ReferenceCheck: Sendable {
    var target: String
    var expectedType: String
    var place: RecordPlace
}

/// A field CloudKit's development schema would add, as seen in one chunk.
package struct InferredObservation: Sendable {
    var recordType: String
    package var field: String?
    package var type: FieldType?
    package var isEncrypted: Bool
    var isNewType: Bool
    var recordIndex: Int
    var line: Int
    var column: Int
    var absoluteLine: Bool
    var recordName: String?
}

/// The result of checking one chunk of input: its diagnostics in input order and counts.
package struct ChunkResult: Sendable {
    package var diagnostics: [PendingDiagnostic] = []
    var lines = 0
    var records = 0
    var syntaxErrors = 0
    var batch: [BatchEntry] = []
    var references: [ReferenceCheck] = []
    package var inferred: [InferredObservation] = []
    /// deleteSelf references and asset file paths, always collected (records rarely have any).
    package var deleteSelf: [DeleteSelfReference] = []
    package var assetPaths: [AssetPath] = []
    /// Keys of `inferred` already recorded in this chunk (type, field, type description).
    var inferredSeen: Set<String> = []

    /// The memberwise initializer, for the layers above.
    package init(diagnostics: [PendingDiagnostic] = [], batch: [BatchEntry] = [], references: [ReferenceCheck] = [], inferred: [InferredObservation] = [], inferredSeen: Set<String> = []) {
        self.diagnostics = diagnostics
        self.batch = batch
        self.references = references
        self.inferred = inferred
        self.inferredSeen = inferredSeen
    }
}
