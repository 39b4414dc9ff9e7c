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
/// (CKRecord.Reference: at most 750 such references to one target). Its names are ranges of
/// its `DeleteSelfList`'s bytes: no String is made for it until a finding names it.
package struct DeleteSelfReference: Sendable {
    /// Index of the record within its chunk (0-based).
    package var recordIndex: Int
    /// Line within the chunk (0-based, or absolute when `absoluteLine`) and 1-based column.
    package var line: Int
    package var column: Int
    var absoluteLine: Bool
    package var field: String
    /// The key of the record's zone (a reference stays in its zone), and of the target's name
    /// and the record's own (nil: the record has no name), with the names as given when
    /// their keys are not their bytes (see `DeleteSelfList.key`).
    var zone: Range<Int>
    var target: Range<Int>
    var targetText: Range<Int>
    var referrer: Range<Int>?
    var recordText: Range<Int>?
}

/// The deleteSelf references of a chunk or of a record, with the bytes of their names in one
/// array: per record that holds any, its zone and its own name, then per reference the target's
/// name, each followed by its key when that differs.
///
/// A record is counted by its key: its zone's, U+0001, its name's, as the UTF-8 of the text
/// when it is ASCII, else of the text's canonical composition (NFC). Swift's `==` on String,
/// by which these were once counted, holds canonically equivalent texts equal (`"\u{212A}"`,
/// the Kelvin sign, is `"K"`), and NFC's bytes are equal exactly then; invalid UTF-8 is
/// repaired first, as `String(decoding:)` does.
package struct DeleteSelfList: Sendable {
    package private(set) var refs: [DeleteSelfReference] = []
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package var isEmpty: Bool { refs.isEmpty }
    package var count: Int { refs.count }

    /// Adds a reference to the record named `target`, held by the record numbered `index` in its
    /// chunk, whose zone is `zone` (its bytes as given) and whose name is `name` (nil: none).
    /// The record's zone and name are kept once, with its first reference.
    package mutating func append(record index: Int, zone: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>?,
                                 target: UnsafeBufferPointer<UInt8>, line: Int, column: Int, absoluteLine: Bool, field: String) {
        var z: Range<Int>, rk: Range<Int>?, rt: Range<Int>?
        if let last = refs.last, last.recordIndex == index {
            z = last.zone; rk = last.referrer; rt = last.recordText
        } else {
            z = put(zone).key
            if let name { (rt, rk) = put(name) } else { rt = nil; rk = nil }
        }
        let (tt, tk) = put(target)
        refs.append(DeleteSelfReference(recordIndex: index, line: line, column: column, absoluteLine: absoluteLine, field: field,
                                        zone: z, target: tk, targetText: tt, referrer: rk, recordText: rt))
    }

    /// The same, from texts (tests, and names the checker unescaped).
    package mutating func append(record index: Int, zone: String, name: String?, target: String, line: Int, column: Int, absoluteLine: Bool, field: String) {
        var zone = zone, target = target
        zone.withUTF8 { z in
            target.withUTF8 { t in
                if var name {
                    name.withUTF8 { append(record: index, zone: z, name: $0, target: t, line: line, column: column, absoluteLine: absoluteLine, field: field) }
                } else {
                    append(record: index, zone: z, name: nil, target: t, line: line, column: column, absoluteLine: absoluteLine, field: field)
                }
            }
        }
    }

    /// Keeps `b`: where its text is, and where its key is (the same bytes when ASCII).
    private mutating func put(_ b: UnsafeBufferPointer<UInt8>) -> (text: Range<Int>, key: Range<Int>) {
        let start = bytes.count
        bytes.append(contentsOf: b)
        let text = start..<bytes.count
        guard !Self.isASCII(b) else { return (text, text) }
        bytes += String(decoding: b, as: UTF8.self)._nfcCodeUnits
        return (text, text.upperBound..<bytes.count)
    }

    /// Whether every byte of `b` is below 0x80, eight at a time.
    static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = b.baseAddress else { return true }
        let raw = UnsafeRawPointer(p)
        var i = 0, any: UInt64 = 0
        while i + 8 <= b.count {
            any |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        // The last bytes as the eight that end there (they overlap the ones read), when there are eight.
        if i < b.count, b.count >= 8 { any |= raw.loadUnaligned(fromByteOffset: b.count - 8, as: UInt64.self); i = b.count }
        while i < b.count { any |= UInt64(p[i]); i += 1 }
        return any & 0x8080_8080_8080_8080 == 0
    }

    /// The name of the target of reference `i`, and of the record holding it (nil: none).
    package func targetName(_ i: Int) -> String { text(refs[i].targetText) }
    package func recordName(_ i: Int) -> String? { refs[i].recordText.map { text($0) } }

    /// Every reference's target name, in order.
    package var targetNames: [String] { refs.indices.map { targetName($0) } }

    private func text(_ r: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[r]), as: UTF8.self) }
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
    package var deleteSelf = DeleteSelfList()
    package var assetPaths: [AssetPath] = []
    /// Keys of `inferred` already recorded in this chunk (type, field, type description).
    var inferredSeen: Set<String> = []

    /// Everything the checks left, as text (the set of keys aside, which `inferred` repeats):
    /// what the fused path's differential test and fuzz target compare.
    package var everything: String {
        "\(diagnostics) | \(lines) \(records) \(syntaxErrors) | \(batch) | \(references) | \(inferred) | \(deleteSelf.refs) \(deleteSelf.bytes) | \(assetPaths)"
    }

    /// The memberwise initializer, for the layers above.
    package init(diagnostics: [PendingDiagnostic] = [], batch: [BatchEntry] = [], references: [ReferenceCheck] = [], inferred: [InferredObservation] = [], inferredSeen: Set<String> = []) {
        self.diagnostics = diagnostics
        self.batch = batch
        self.references = references
        self.inferred = inferred
        self.inferredSeen = inferredSeen
    }
}
