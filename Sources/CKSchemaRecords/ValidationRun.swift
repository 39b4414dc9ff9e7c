import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mutable state of one `validate` call: ordering, counting, batches, inference.
package final class ValidationRun {
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
    /// The batch holds records in the Web Services shape (200 operations a request).
    private var batchWebServices = false
    private var batchReportedOperations = false
    /// deleteSelf references per target, over every file (750 at most).
    private var deleteSelf = RecordLimits.DeleteSelfCounter()
    /// Every record name seen, with its type (`--batch` only).
    private var names: [String: String] = [:]
    private var references: [(check: ReferenceCheck, diagnostic: Diagnostic)] = []
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
            // FileManager rather than stat(2): mode_t and S_IFMT differ between Glibc and Darwin.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                unreadable(path, "cannot read '\(path)': no such file")
                return
            }
            if isDirectory.boolValue {
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
        deliver(Diagnostic(rule: InputRules.unreadable, message, at: SourceLocation(file: path, line: 1, column: 1)))
    }

    // MARK: Streaming JSON

    private func runChunks(fd: Int32, prefix: [UInt8], mode: RecordChunkReader.Mode) {
        let reader = RecordChunkReader(fd: fd, mode: mode, prefix: prefix)
        let opts = validator.options
        let production = validator.environment == .production
        if opts.jobs <= 1 {
            var checker = RecordChecker(schema: validator.compiled, production: production, collectBatch: opts.batchSize != nil, keepsTokens: false)
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
        let pool = CheckPool(jobs: opts.jobs, schema: validator.compiled, production: production, collectBatch: opts.batchSize != nil)
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
                deliver(Diagnostic(rule: RecordsRules.syntax, d.message, at: d.location, fix: d.fix))
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
                                    collectBatch: validator.options.batchSize != nil, keepsTokens: false)
        summary.bytes += data.count
        for node in records {
            if stopped { return }
            let (json, map) = YAMLRecordConverter.json(node)
            var r = ChunkResult()
            json.withUnsafeBufferPointer { b in
                _ = checker.check(b.baseAddress!, b.count, index: 0, position: .yaml(map), into: &r)
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
            let line = absolute(d.line, d.absoluteLine)
            out.append((line, Diagnostic(code: d.code, severity: d.severity, location: SourceLocation(file: file, line: line, column: d.column),
                                         message: compose(d.recordIndex, d.recordName, d.field, d.message), fix: d.fix)))
        }
        if let size = validator.options.batchSize { batches(r, size: size, into: &out) }
        if validator.environment == .development { infer(r, into: &out) }
        if !r.deleteSelf.isEmpty || !r.assetPaths.isEmpty { limits(r, into: &out) }
        if out.count > 1 && (!r.batch.isEmpty || !r.inferred.isEmpty || !r.deleteSelf.isEmpty || !r.assetPaths.isEmpty) {
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
        return Self.compose(number: baseRecord + index + 1, name, field, message)
    }

    /// `record #3 'n3', field 'title': message`: how every record diagnostic names its record
    /// and field (`validate` and `records import` alike).
    package static func compose(number: Int, _ name: String?, _ field: String?, _ message: String) -> String {
        var s = "record #\(number)"
        if let name { s += " '\(name.count > 64 ? name.prefix(61) + "..." : name)'" }
        if let field { s += ", field '\(field)'" }
        return s + ": " + message
    }

    private func batches(_ r: ChunkResult, size: Int, into out: inout [(line: Int, diagnostic: Diagnostic)]) {
        for c in r.references {
            let line = absolute(c.place.line, c.place.absoluteLine)
            references.append((c, Diagnostic(rule: RecordsRules.referenceTargetType, compose(c.place.recordIndex, c.place.recordName, c.place.field, ""),
                                         at: SourceLocation(file: file, line: line, column: c.place.column),
                                         fix: "point it at a '\(c.expectedType)' record")))
        }
        for e in r.batch {
            let line = absolute(e.line, e.absoluteLine)
            if batchCount == size {
                batchCount = 0; batchBytes = 0; batchNumber += 1
                batchReportedItems = false; batchReportedBytes = false
                batchWebServices = false; batchReportedOperations = false
            }
            batchCount += 1
            batchBytes += e.size
            if e.webServices { batchWebServices = true }
            let loc = SourceLocation(file: file, line: line, column: 1)
            let label = compose(e.recordIndex, e.name, nil, "")
            if batchWebServices, batchCount > RecordLimits.maxWebServicesOperations, !batchReportedOperations {
                // Only a batch whose records carry Web Services tags is known to be a
                // records/modify request; cktool's and the plain shape stay at 400.
                batchReportedOperations = true
                out.append((line, Diagnostic(rule: RecordsRules.webServicesOperations,
                    "\(label)batch \(batchNumber + 1) holds more than \(RecordLimits.maxWebServicesOperations) records in the Web Services shape; one records/modify request takes at most \(RecordLimits.maxWebServicesOperations) operations",
                    at: loc, fix: "use --batch \(RecordLimits.maxWebServicesOperations) or fewer for CloudKit Web Services")))
            }
            if batchCount > RecordValidator.maxBatchItems && !batchReportedItems {
                batchReportedItems = true
                out.append((line, Diagnostic(rule: RecordsRules.batchTooManyItems,
                    "\(label)batch \(batchNumber + 1) holds more than \(RecordValidator.maxBatchItems) records; CloudKit refuses the modify operation with limitExceeded",
                    at: loc, fix: "use --batch \(RecordValidator.maxBatchItems) or fewer")))
            }
            if batchBytes > RecordValidator.maxBatchBytes && !batchReportedBytes {
                batchReportedBytes = true
                out.append((line, Diagnostic(rule: RecordsRules.batchTooLarge,
                    "\(label)batch \(batchNumber + 1) carries more than 2 MB of non-asset data; CloudKit refuses the request with limitExceeded",
                    at: loc, fix: "write fewer records per batch")))
            }
            if let name = e.name, names[name] == nil { names[name] = e.recordType ?? "" }
            if let parent = e.parent {
                let pl = absolute(e.parentLine, e.absoluteLine)
                parents.append((parent, Diagnostic(rule: RecordsRules.parentNotFound,
                    compose(e.recordIndex, e.name, "parent", "the parent record '\(parent)' is neither in the batch nor in the given files"),
                    at: SourceLocation(file: file, line: pl, column: e.parentColumn),
                    fix: "save the parent in the same batch or an earlier one, or fix its name")))
            }
        }
    }

    /// The limits across records: deleteSelf references to one target (over every file, in
    /// input order) and the size of the asset files records name.
    private func limits(_ r: ChunkResult, into out: inout [(line: Int, diagnostic: Diagnostic)]) {
        let list = r.deleteSelf
        var i = 0
        while i < list.count {
            // One record's references together: a record saved again replaces its earlier ones
            // (the list knows the record's zone and name; without a name, nothing is kept).
            let index = list.refs[i].recordIndex
            var j = i
            while j < list.count, list.refs[j].recordIndex == index { j += 1 }
            for k in deleteSelf.add(list, i..<j) {
                let line = absolute(list.refs[k].line, list.refs[k].absoluteLine)
                out.append((line, RecordLimits.deleteSelfDiagnostic(list, k, number: baseRecord + index + 1, file: file, line: line)))
            }
            i = j
        }
        for asset in r.assetPaths {
            let line = absolute(asset.place.line, asset.place.absoluteLine)
            if let d = RecordLimits.assetDiagnostic(asset, number: baseRecord + asset.place.recordIndex + 1, file: file, line: line) { out.append((line, d)) }
        }
    }

    /// The input's line of a chunk's finding: YAML records carry their own line; the others
    /// count from the chunk's first line.
    private func absolute(_ line: Int, _ isAbsolute: Bool) -> Int {
        isAbsolute ? line : baseLine + line + 1
    }

    private func infer(_ r: ChunkResult, into out: inout [(line: Int, diagnostic: Diagnostic)]) {
        for o in r.inferred {
            let line = absolute(o.line, o.absoluteLine)
            let loc = SourceLocation(file: file, line: line, column: o.column)
            switch summary.inferred.add(o) {
            case .new:
                let what = o.field.map { "field '\($0)' (\(o.type?.description ?? "type unknown")) would be added to record type '\(o.recordType)'" }
                    ?? "record type '\(o.recordType)' would be created"
                out.append((line, Diagnostic(rule: RecordsRules.inferredField, compose(o.recordIndex, o.recordName, o.field, "not in the development schema: " + what), at: loc, fix: "run with --infer to print the schema change, and add it to the schema")))
            case .conflict(let first):
                out.append((line, Diagnostic(rule: RecordsRules.inferConflict,
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
        for (name, d) in parents where names[name] == nil {
            if stopped { break }
            deliver(d)
        }
        for (check, d) in references {
            guard let actual = names[check.target], !actual.isEmpty, actual != check.expectedType else { continue }
            if stopped { break }
            var d = d
            d.message += "the reference points at '\(check.target)', a '\(actual)' record, but the schema says the field points at '\(check.expectedType)'"
            deliver(d)
        }
    }
}
