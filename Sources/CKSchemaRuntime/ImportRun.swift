import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaRecords
import CKSchemaStore

/// One `records import` inside its transaction: the state that lives across files and
/// batches (the schema development grows, the batch being filled, the change-tag counter).
///
/// Each line is tokenized once: `validate`'s checker (`RecordChecker`) reads it into its
/// token tape and checks it (CK4xx), then `IncomingReader` builds the record's fields from
/// that same tape and applies the importer's own checks (CK55x).
final class ImportRun {
    typealias Incoming = RecordImporter.Incoming

    let options: RecordImporter.Options
    /// The environment's schema, with the fields development added so far.
    private(set) var schema: Schema
    private(set) var result = RecordImporter.Result()
    /// Each field development added ("Type.field (type)"), at the first record that added it.
    private(set) var addedFields: [String: SourceLocation] = [:]

    private var checker: RecordChecker
    private let writer: RecordImporter.Writer
    /// The environment's subscriptions, evaluated around each batch (nil: none, no cost).
    private let recorder: NotificationRecorder?
    private let seq: String
    private var counter = 0
    private var batch: [Incoming] = []
    /// deleteSelf references per target: the environment's records, then each record saved.
    private var deleteSelf = RecordLimits.DeleteSelfCounter()
    /// Whether `deleteSelf` holds the store's references yet: read at the first record that
    /// has one, so that a run without deleteSelf references never scans the environment's
    /// records (an in-memory CloudKit runs one import per request: a scan each was quadratic).
    private var preloaded = false
    private let store: Store

    init(store: Store, options: RecordImporter.Options, schema: Schema) throws {
        self.options = options
        self.schema = schema
        seq = try store.nextChangeTagSequence()
        writer = RecordImporter.Writer(store: store, env: options.environment)
        recorder = try NotificationRecorder(store: store, env: options.environment, schema: schema)
        // The validate command's checks run first on every record (names, value types,
        // encryption, references, size; CK4xx); the importer's own checks follow.
        // A rule the options turn off (CK904: `checksRecordZones`) is the checker's input, so
        // it is not run at all.
        checker = RecordChecker(schema: CompiledSchema(schema), production: options.environment == .production, collectBatch: false,
                                undeclaredZonesElsewhere: true, checksRecordZones: options.checksRecordZones)
        batch.reserveCapacity(options.batchSize)
        self.store = store
    }

    /// Counts the deleteSelf references the environment's records hold (CKRecord.Reference:
    /// at most 750 to one target), so that the import's records are counted on top of them.
    /// Read once, before the first record of the run that holds such a reference is counted:
    /// the records of the run saved before it hold none, so the count is the one at the start
    /// of the run, less the references those records replaced.
    private func preloadDeleteSelf() throws {
        guard !preloaded else { return }
        preloaded = true
        try store.deleteSelfReferences(env: options.environment) { zone, referrer, target, count in
            deleteSelf.preload(target: zone + "\u{1}" + target, referrer: zone + "\u{1}" + referrer, count: Int(clamping: count))
        }
    }

    /// Imports one file's records, saving them in batches.
    func importFile(_ path: String) throws {
        let file = NDJSONLines.displayName(path)
        var number = 0
        try NDJSONLines.read(path: path) { item in
            number += 1
            switch item {
            case .tooLong(let line, let message):
                // The same CK400 validate gives; the line is never held whole.
                result.failed += 1
                result.diagnostics.append(Diagnostic(rule: RecordsRules.syntax, ValidationRun.compose(number: number, nil, nil, message),
                                                 at: SourceLocation(file: file, line: line, column: 1)))
            case .line(let line, let bytes):
                batch.append(try take(bytes, line: line, number: number, file: file))
                if batch.count >= options.batchSize { try flush() }
            }
        }
        try flush()
    }

    /// Imports records already in memory, one record's line each (line N of `file` is
    /// `lines[N - 1]`), saving them in batches: the same path as a file's lines (the same
    /// checker, reader, limits and batches), without the file. The caller holds every line
    /// already, so no cap bounds memory here; the checker's 1 MB per record (CK410) applies.
    func importLines(_ lines: [String], file: String) throws {
        for (i, text) in lines.enumerated() {
            var text = text
            let rec = try text.withUTF8 { try take(UnsafeRawBufferPointer($0), line: i + 1, number: i + 1, file: file) }
            batch.append(rec)
            if batch.count >= options.batchSize { try flush() }
        }
        try flush()
    }

    /// Checks and reads one record; its stored fields are ready when nothing failed.
    private func take(_ bytes: UnsafeRawBufferPointer, line: Int, number: Int, file: String) throws -> Incoming {
        let checked = check(bytes, line: line, number: number, file: file)
        if !checked.deleteSelf.isEmpty { try preloadDeleteSelf() }
        var (rec, additions) = IncomingReader.read(checked.tokens.map { TokenReader(tokens: $0, bytes: bytes) },
                                                   syntaxError: checked.syntaxError, bytes: bytes, line: line, number: number, file: file,
                                                   schema: schema, env: options.environment, inferred: checked.inferred)
        if checked.errors.isEmpty, rec.error == nil, let over = limits(checked, rec, line: line, number: number, file: file) {
            rec.error = over.first
            result.diagnostics += over.dropFirst()
        } else if let first = checked.errors.first {
            // Read only for its zone (atomic batches); a failed record adds nothing to the schema.
            rec.error = first
            result.diagnostics += checked.errors.dropFirst()
        } else if rec.error == nil, !additions.isEmpty {
            adopt(additions, of: rec.type, at: SourceLocation(file: file, line: line, column: 1))
        }
        if rec.error == nil {
            rec.storedFields = JSONValue.object(rec.fields).text
            rec.deleteSelfTargets = checked.deleteSelf.targetNames
        }
        return rec
    }

    /// The limits across records, as `validate` applies them: more than 750 deleteSelf references
    /// to one target (counting the store's), an asset file over 50 MB. nil when the record passes.
    private func limits(_ checked: Checked, _ rec: Incoming, line: Int, number: Int, file: String) -> [Diagnostic]? {
        var out: [Diagnostic] = []
        for asset in checked.assetPaths {
            if let d = RecordLimits.assetDiagnostic(asset, number: number, file: file, line: line + asset.place.line) { out.append(d) }
        }
        if out.isEmpty, !checked.deleteSelf.isEmpty {
            let list = checked.deleteSelf
            for k in deleteSelf.add(list, 0..<list.count, from: rec.zone + "\u{1}" + rec.name) {
                out.append(RecordLimits.deleteSelfDiagnostic(list, k, number: number, file: file, line: line + list.refs[k].line))
            }
        }
        return out.isEmpty ? nil : out
    }

    /// What `validate`'s checker says about one record, and its tokens.
    private struct Checked {
        /// The tape of the record (nil when it is not JSON), valid until the next record.
        var tokens: UnsafeBufferPointer<JSONToken>?
        var syntaxError: JSONSyntaxError?
        /// Its errors: the first fails the record.
        var errors: [Diagnostic] = []
        /// The fields the validator would add in development, with the type and encryption
        /// it infers: `validate --infer` and the import agree.
        var inferred: [String: InferredObservation] = [:]
        /// Its deleteSelf references and the asset files it names (the limits across records).
        var deleteSelf = DeleteSelfList()
        var assetPaths: [AssetPath] = []
    }

    /// Tokenizes the record once and runs the validate command's checks on it (unless a
    /// test switched them off); its warnings go straight to the result.
    private func check(_ bytes: UnsafeRawBufferPointer, line: Int, number: Int, file: String) -> Checked {
        var out = Checked()
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return out }
        guard options.runsRecordChecks else {
            out.syntaxError = checker.tokenize(base, bytes.count)
            if out.syntaxError == nil { out.tokens = checker.tokens }
            return out
        }
        var checked = ChunkResult()
        if checker.check(base, bytes.count, index: 0, position: .bytes(line: 0, column: 1), into: &checked) { out.tokens = checker.tokens }
        for d in checked.diagnostics where d.severity != .note {
            // Named as validate names them: record number, name and field.
            let message = d.recordIndex < 0 ? d.message : ValidationRun.compose(number: number, d.recordName, d.field, d.message)
            let diag = Diagnostic(code: d.code, severity: d.severity, location: SourceLocation(file: file, line: line + d.line, column: d.column),
                                  message: message, fix: d.fix)
            if d.severity == .error { out.errors.append(diag) } else { result.diagnostics.append(diag) }
        }
        for o in checked.inferred { if let f = o.field { out.inferred[f] = o } }
        out.deleteSelf = checked.deleteSelf
        out.assetPaths = checked.assetPaths
        return out
    }

    /// Adds the fields a record brought to its type in development's schema.
    private func adopt(_ additions: [Field], of type: String, at: SourceLocation) {
        guard let t = schema.recordTypes.firstIndex(where: { $0.name == type }) else { return }
        schema.recordTypes[t].fields += additions
        for f in additions {
            let key = "\(type).\(f.name) (\(f.type)\(f.isEncrypted ? ", encrypted" : ""))"
            if addedFields[key] == nil { addedFields[key] = at }
        }
    }

    /// Saves the batch filled so far.
    private func flush() throws {
        guard !batch.isEmpty else { return }
        result.batches += 1
        try RecordImporter.saveBatch(&batch, schema: schema, writer: writer, recorder: recorder, options: options, seq: seq,
                                     counter: &counter, result: &result)
        batch.removeAll(keepingCapacity: true)
    }
}
