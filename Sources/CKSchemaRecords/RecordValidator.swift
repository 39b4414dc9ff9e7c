import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

        /// Options with CloudKit's defaults: no batches, no error limit, one job per core.
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

    /// A validator for records headed for `environment`, whose schema is `schema`. The
    /// schema is compiled into lookup tables once, here.
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
                checker.check(inPlace: chunk.bytes + s.start, s.end - s.start, index: r.records, position: .bytes(line: s.line, column: s.column), into: &r)
            }
            flushProblems(before: nil, &r)
            r.lines = chunk.lines
            return r
        }
        // NDJSON: one record a line; blank lines are skipped.
        r.lines = chunk.forEachLine { line, start, end in
            if !chunk.isBlank(start, end) {
                checker.check(inPlace: chunk.bytes + start, end - start, index: r.records, position: .bytes(line: line, column: 1), into: &r)
            }
        }
        return r
    }
}
