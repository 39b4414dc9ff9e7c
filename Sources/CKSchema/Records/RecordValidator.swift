import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a record file is written. `docs/records.md` describes each.
public enum RecordFormat: String, Sendable, Hashable, CaseIterable {
    /// One JSON record a line (`.ndjson`, `.jsonl`).
    case ndjson
    /// A JSON array of records, or JSON records one after another (`.json`).
    case json
    /// One YAML record, a list of them, or a mapping with a `records:` list (`.yaml`, `.yml`).
    case yaml

    /// The format from a file name's extension; nil when the extension says nothing.
    public static func fromExtension(_ path: String) -> RecordFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "ndjson", "jsonl", "ldjson": return .ndjson
        case "json": return .json
        case "yaml", "yml": return .yaml
        default: return nil
        }
    }
}

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

/// Checks records against a schema the way CloudKit's server would, streaming, in
/// parallel, and reporting diagnostics in input order as they are found.
///
/// ```swift
/// let validator = RecordValidator(schema: schema, environment: .production)
/// let summary = validator.validate(files: ["seed.ndjson"]) { print($0) }
/// ```
public struct RecordValidator: Sendable {
    /// How a run behaves.
    public struct Options: Sendable {
        /// Check batches of this many records as one modify operation (`--batch N`).
        public var batchSize: Int?
        /// Stop after this many errors (`--max-errors N`).
        public var maxErrors: Int?
        /// Collect the schema change development would make (`--infer`).
        public var infer: Bool
        /// Threads that check records (`--jobs N`); at least 1.
        public var jobs: Int
        /// Read every input as this format instead of detecting it.
        public var format: RecordFormat?
        /// Called from the validating thread about every megabyte of input.
        public var progress: (@Sendable (ValidationProgress) -> Void)?

        public init(batchSize: Int? = nil, maxErrors: Int? = nil, infer: Bool = false, jobs: Int = RecordValidator.defaultJobs,
                    format: RecordFormat? = nil, progress: (@Sendable (ValidationProgress) -> Void)? = nil) {
            self.batchSize = batchSize
            self.maxErrors = maxErrors
            self.infer = infer
            self.jobs = max(1, jobs)
            self.format = format
            self.progress = progress
        }
    }

    /// The number of cores: the default for `--jobs`.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// CKError.Code.limitExceeded: "400 items (records or shares) per operation".
    public static let maxBatchItems = 400
    /// CKError.Code.limitExceeded: "2 MB per request (not counting asset sizes)".
    public static let maxBatchBytes = 2 * 1_048_576

    public let schema: Schema
    public let environment: Environment
    public let options: Options
    let compiled: CompiledSchema

    public init(schema: Schema, environment: Environment, options: Options = Options()) {
        self.schema = schema
        self.environment = environment
        self.options = options
        compiled = CompiledSchema(schema)
    }

    /// Validates each file in turn (`-` is standard input), calling `onDiagnostic` for
    /// each finding in input order. A file that cannot be read gets a CK001 diagnostic and
    /// counts in `unreadableFiles`; the others are still validated.
    public func validate(files: [String], onDiagnostic: (Diagnostic) -> Void) -> ValidationSummary {
        withoutActuallyEscaping(onDiagnostic) { callback in
            let run = ValidationRun(validator: self, onDiagnostic: callback)
            for file in files {
                if run.stopped { break }
                run.validateFile(file)
            }
            run.finish()
            return run.summary
        }
    }

    /// Validates records held in memory. `file` names them in diagnostics.
    public func validate(bytes: [UInt8], file: String, format: RecordFormat, onDiagnostic: (Diagnostic) -> Void) -> ValidationSummary {
        withoutActuallyEscaping(onDiagnostic) { callback in
            let run = ValidationRun(validator: self, onDiagnostic: callback)
            run.validateBytes(bytes, file: file, format: format)
            run.finish()
            return run.summary
        }
    }

    /// Checks one chunk (called on a pool thread, or inline with one job).
    static func check(_ chunk: RecordChunk, with checker: inout RecordChecker) -> ChunkResult {
        var r = ChunkResult()
        let p = UnsafePointer(chunk.bytes)
        // Problems the reader found go between the records, in line order.
        let problems = chunk.readerProblems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        var next = 0
        func flushProblems(before line: Int?, _ r: inout ChunkResult) {
            while next < problems.count, line == nil || problems[next].line <= line! {
                let problem = problems[next]
                r.diagnostics.append(PendingDiagnostic(code: problem.code.code, severity: problem.code.defaultSeverity,
                                                       recordIndex: problem.countsAsRecord ? r.records : -1,
                                                       line: problem.line, column: problem.column, message: problem.message))
                if problem.code == RecordsRules.syntax { r.syntaxErrors += 1 }
                if problem.countsAsRecord { r.records += 1 }
                next += 1
            }
        }
        if let spans = chunk.spans {
            for s in spans {
                flushProblems(before: s.line - 1, &r)
                checker.check(p + s.start, s.end - s.start, index: r.records, position: .bytes(line: s.line, column: s.column), into: &r)
            }
            flushProblems(before: nil, &r)
            r.lines = chunk.lines
            return r
        }
        // NDJSON: one record a line; blank lines are skipped.
        let n = chunk.count
        var start = 0
        var line = 0
        while start < n {
            var end = n
            if let nl = memchr(p + start, 0x0A, n - start) {
                end = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - p
            }
            var k = start
            while k < end, p[k] == 0x20 || p[k] == 0x09 || p[k] == 0x0D { k += 1 }
            if k < end {
                checker.check(p + start, end - start, index: r.records, position: .bytes(line: line, column: 1), into: &r)
            }
            if end < n { line += 1 }
            start = end + 1
        }
        r.lines = line
        return r
    }
}

/// The mutable state of one `validate` call: ordering, counting, batches, inference.
final class ValidationRun {
    let validator: RecordValidator
    let onDiagnostic: (Diagnostic) -> Void
    var summary = ValidationSummary()
    var stopped = false
    private let start = Date()
    private var lastProgressBytes = 0

    // Ordering within the current file.
    private var file = ""
    private var baseLine = 0
    private var baseRecord = 0

    // Batches (--batch N) over all files, in input order.
    private var batchCount = 0
    private var batchBytes = 0
    private var batchReportedItems = false
    private var batchReportedBytes = false
    private var batchNumber = 0
    private var names: Set<String> = []
    private var parents: [(name: String, diagnostic: Diagnostic)] = []

    init(validator: RecordValidator, onDiagnostic: @escaping (Diagnostic) -> Void) {
        self.validator = validator
        self.onDiagnostic = onDiagnostic
    }

    // MARK: Files

    func validateFile(_ path: String) {
        summary.files += 1
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            var st = stat()
            if stat(path, &st) != 0 {
                unreadable(path, "cannot read '\(path)': \(String(cString: strerror(errno)))")
                return
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                unreadable(path, "'\(path)' is a folder where a record file was expected")
                return
            }
            fd = open(path, O_RDONLY)
            if fd < 0 {
                unreadable(path, "cannot open '\(path)': \(String(cString: strerror(errno)))")
                return
            }
        }
        defer { if fd != 0 { close(fd) } }
        let name = path == "-" ? "<stdin>" : path
        var format = validator.options.format ?? RecordFormat.fromExtension(path)
        var prefix: [UInt8] = []
        if format == nil || format == .json {
            // Look at the first meaningful byte: '[' is an array, '{' records, else YAML.
            prefix = [UInt8](repeating: 0, count: 4096)
            let want = prefix.count
            var got = 0
            while got < want {
                let n = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, want - got) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                got += n
            }
            prefix.removeSubrange(got...)
            var first: UInt8?
            var i = 0
            if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { i = 3 }
            while i < prefix.count {
                let c = prefix[i]
                if c != 0x20 && c != 0x0A && c != 0x0D && c != 0x09 { first = c; break }
                i += 1
            }
            if format == nil {
                format = first == UInt8(ascii: "[") ? .json : first == UInt8(ascii: "{") || first == nil ? .ndjson : .yaml
            } else if first != UInt8(ascii: "[") {
                format = .json  // handled as a sequence below
            }
        }
        beginFile(name)
        switch format! {
        case .yaml:
            var data = prefix
            if !readAll(fd, into: &data, limit: YAMLReader.maxFileSize, file: name) { return }
            validateYAML(data, file: name)
        case .ndjson:
            runChunks(fd: fd, prefix: prefix, mode: .ndjson)
        case .json:
            var mode = RecordChunkReader.Mode.array
            if let first = prefix.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }),
               first != UInt8(ascii: "[") {
                mode = .sequence
            }
            runChunks(fd: fd, prefix: prefix, mode: mode)
        }
    }

    func validateBytes(_ bytes: [UInt8], file: String, format: RecordFormat) {
        summary.files += 1
        beginFile(file)
        if format == .yaml { validateYAML(bytes, file: file); return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { unreadable(file, "cannot create a pipe"); return }
        // Feed the bytes through a pipe from a helper thread so that in-memory input takes
        // exactly the streaming path files take.
        let writer = fds[1]
        let data = bytes
        let done = DispatchSemaphore(value: 0)
        Thread {
            data.withUnsafeBytes { raw in
                var off = 0
                while off < raw.count {
                    let n = write(writer, raw.baseAddress! + off, raw.count - off)
                    if n <= 0 { break }
                    off += n
                }
            }
            close(writer)
            done.signal()
        }.start()
        var mode = RecordChunkReader.Mode.ndjson
        if format == .json {
            let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
            mode = first == UInt8(ascii: "[") ? .array : .sequence
        }
        runChunks(fd: fds[0], prefix: [], mode: mode)
        // Drain what is left so the writer can finish, then close.
        var sink = [UInt8](repeating: 0, count: 65536)
        while sink.withUnsafeMutableBytes({ read(fds[0], $0.baseAddress!, 65536) }) > 0 {}
        done.wait()
        close(fds[0])
    }

    private func readAll(_ fd: Int32, into data: inout [UInt8], limit: Int, file: String) -> Bool {
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { unreadable(file, "cannot read '\(file)': \(String(cString: strerror(errno)))"); return false }
            if n == 0 { return true }
            data.append(contentsOf: buf[0..<n])
            if data.count > limit {
                unreadable(file, "the YAML record file is larger than \(limit >> 20) MB; write large record sets as NDJSON")
                return false
            }
        }
    }

    private func beginFile(_ name: String) {
        file = name
        baseLine = 0
        baseRecord = 0
    }

    private func unreadable(_ path: String, _ message: String) {
        summary.unreadableFiles += 1
        deliver(.error(InputRules.unreadable.code, message, at: SourceLocation(file: path, line: 1, column: 1)))
    }

    // MARK: Streaming JSON

    private func runChunks(fd: Int32, prefix: [UInt8], mode: RecordChunkReader.Mode) {
        let reader = RecordChunkReader(fd: fd, mode: mode, prefix: prefix)
        let opts = validator.options
        let production = validator.environment == .production
        if opts.jobs <= 1 {
            var checker = RecordChecker(schema: validator.compiled, production: production, collectBatch: opts.batchSize != nil, infer: opts.infer)
            while !stopped {
                let chunk: RecordChunk?
                do { chunk = try reader.next() } catch { unreadable(file, "cannot read '\(file)': \(error.message)"); return }
                guard let chunk else { break }
                summary.bytes += chunk.count
                let result = RecordValidator.check(chunk, with: &checker)
                emit(result)
            }
            return
        }
        let pool = CheckPool(jobs: opts.jobs, schema: validator.compiled, production: production, collectBatch: opts.batchSize != nil, infer: opts.infer)
        defer { pool.shutdown() }
        var submitted = 0
        var emitted = 0
        let inFlight = opts.jobs * 3
        while !stopped {
            let chunk: RecordChunk?
            do { chunk = try reader.next() } catch { unreadable(file, "cannot read '\(file)': \(error.message)"); break }
            guard let chunk else { break }
            summary.bytes += chunk.count
            pool.submit(submitted, chunk)
            submitted += 1
            while emitted < submitted, !stopped {
                let mustWait = submitted - emitted >= inFlight
                guard let result = pool.result(emitted, wait: mustWait) else { break }
                emit(result)
                emitted += 1
            }
        }
        if stopped { pool.stop() }
        while emitted < submitted {
            let result = pool.result(emitted, wait: true)!
            if !stopped { emit(result) }
            emitted += 1
        }
    }

    // MARK: YAML

    private func validateYAML(_ data: [UInt8], file: String) {
        let doc: YAMLDocument
        do {
            doc = try YAMLReader.parse(Data(data), file: file)
        } catch {
            for d in error.diagnostics {
                summary.malformedRecords += 1
                deliver(Diagnostic(code: RecordsRules.syntax.code, severity: .error, location: d.location, message: d.message, fix: d.fix))
            }
            return
        }
        guard let root = doc.root else { return }
        var records: [YAMLNode] = []
        switch root.kind {
        case .sequence(let items): records = items
        case .mapping(let pairs):
            if pairs.count == 1, pairs[0].name == "records", let items = pairs[0].value.sequence { records = items } else { records = [root] }
        case .scalar:
            if !root.isNull { records = [root] }
        }
        var checker = RecordChecker(schema: validator.compiled, production: validator.environment == .production,
                                    collectBatch: validator.options.batchSize != nil, infer: validator.options.infer)
        summary.bytes += data.count
        for node in records {
            if stopped { return }
            let (json, map) = YAMLRecordConverter.json(node)
            var r = ChunkResult()
            json.withUnsafeBufferPointer { b in
                checker.check(b.baseAddress!, b.count, index: 0, position: .yaml(map), into: &r)
            }
            emit(r)
        }
    }

    // MARK: Emission, in input order

    private func emit(_ r: ChunkResult) {
        summary.records += r.records
        summary.malformedRecords += r.syntaxErrors
        var out: [(line: Int, diagnostic: Diagnostic)] = []
        for d in r.diagnostics {
            let line = d.absoluteLine ? d.line : baseLine + d.line + 1
            out.append((line, Diagnostic(code: d.code, severity: d.severity, location: SourceLocation(file: file, line: line, column: d.column),
                                         message: compose(d.recordIndex, d.recordName, d.field, d.message), fix: d.fix)))
        }
        if let size = validator.options.batchSize { batches(r, size: size, into: &out) }
        if validator.environment == .development { infer(r, into: &out) }
        if out.count > 1 && (!r.batch.isEmpty || !r.inferred.isEmpty) {
            out = out.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        }
        for (_, d) in out {
            if stopped { break }
            deliver(d)
        }
        baseLine += r.lines
        baseRecord += r.records
        if let progress = validator.options.progress, summary.bytes - lastProgressBytes >= 1 << 20 {
            lastProgressBytes = summary.bytes
            progress(ValidationProgress(records: summary.records, bytes: summary.bytes, seconds: Date().timeIntervalSince(start)))
        }
    }

    private func compose(_ index: Int, _ name: String?, _ field: String?, _ message: String) -> String {
        if index < 0 { return message }
        var s = "record #\(baseRecord + index + 1)"
        if let name { s += " '\(name.count > 64 ? name.prefix(61) + "..." : name)'" }
        if let field { s += ", field '\(field)'" }
        return s + ": " + message
    }

    private func batches(_ r: ChunkResult, size: Int, into out: inout [(line: Int, diagnostic: Diagnostic)]) {
        for e in r.batch {
            let line = e.absoluteLine ? e.line : baseLine + e.line + 1
            if batchCount == size {
                batchCount = 0; batchBytes = 0; batchNumber += 1
                batchReportedItems = false; batchReportedBytes = false
            }
            batchCount += 1
            batchBytes += e.size
            let loc = SourceLocation(file: file, line: line, column: 1)
            let label = compose(e.recordIndex, e.name, nil, "")
            if batchCount > RecordValidator.maxBatchItems && !batchReportedItems {
                batchReportedItems = true
                out.append((line, .error(RecordsRules.batchTooManyItems.code,
                    "\(label)batch \(batchNumber + 1) holds more than \(RecordValidator.maxBatchItems) records; CloudKit refuses the modify operation with limitExceeded",
                    at: loc, fix: "use --batch \(RecordValidator.maxBatchItems) or fewer")))
            }
            if batchBytes > RecordValidator.maxBatchBytes && !batchReportedBytes {
                batchReportedBytes = true
                out.append((line, .error(RecordsRules.batchTooLarge.code,
                    "\(label)batch \(batchNumber + 1) carries more than 2 MB of non-asset data; CloudKit refuses the request with limitExceeded",
                    at: loc, fix: "write fewer records per batch")))
            }
            if let name = e.name { names.insert(name) }
            if let parent = e.parent {
                let pl = e.absoluteLine ? e.parentLine : baseLine + e.parentLine + 1
                parents.append((parent, .error(RecordsRules.parentNotFound.code,
                    compose(e.recordIndex, e.name, "parent", "the parent record '\(parent)' is neither in the batch nor in the given files"),
                    at: SourceLocation(file: file, line: pl, column: e.parentColumn),
                    fix: "save the parent in the same batch or an earlier one, or fix its name")))
            }
        }
    }

    private func infer(_ r: ChunkResult, into out: inout [(line: Int, diagnostic: Diagnostic)]) {
        for o in r.inferred {
            let line = o.absoluteLine ? o.line : baseLine + o.line + 1
            let loc = SourceLocation(file: file, line: line, column: o.column)
            switch summary.inferred.add(o) {
            case .new:
                let what = o.field.map { "field '\($0)' (\(o.type?.description ?? "type unknown")) would be added to record type '\(o.recordType)'" }
                    ?? "record type '\(o.recordType)' would be created"
                out.append((line, Diagnostic(code: RecordsRules.inferredField.code, severity: .note, location: loc,
                                             message: compose(o.recordIndex, o.recordName, o.field, "not in the development schema: " + what),
                                             fix: "run with --infer to print the schema change, and add it to the schema")))
            case .conflict(let first):
                out.append((line, .error(RecordsRules.inferConflict.code,
                    compose(o.recordIndex, o.recordName, o.field, "written as \(o.type?.description ?? "?") but an earlier record wrote it as \(first); CloudKit fixes a new field's type on its first save and refuses the other"),
                    at: loc, fix: "write the field with one type")))
            case .known:
                break
            }
        }
    }

    private func deliver(_ d: Diagnostic) {
        guard !stopped else { return }
        switch d.severity {
        case .error: summary.errors += 1
        case .warning: summary.warnings += 1
        case .note: summary.notes += 1
        }
        onDiagnostic(d)
        if d.severity == .error, let max = validator.options.maxErrors, summary.errors >= max {
            stopped = true
            summary.stoppedEarly = true
        }
    }

    func finish() {
        guard !stopped else { return }
        for (name, d) in parents where !names.contains(name) {
            if stopped { break }
            deliver(d)
        }
    }
}
