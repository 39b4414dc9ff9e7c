import CKSchema
import Foundation

/// `ckschema validate FILE...`: records checked against the schema of the environment
/// they are headed for, streamed, diagnostics in input order.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "Check records (NDJSON, JSON, YAML) against a schema the way CloudKit's server would."
    static let usage = "ckschema validate [--schema SCHEMA] [--env production|development] [--batch N] [--max-errors N] [--infer] [--jobs N] [--format text|json|github|sarif|markdown] FILE..."
    static let options = [
        OptionSpec(name: "schema", short: nil, takesValue: true, help: "schema source (YAML file, folder, .ckdb, Core Data model)",
                   valueName: "SCHEMA", defaultValue: "the ckschema.yaml schema of the environment", isPath: true),
        OptionSpec(name: "env", short: nil, takesValue: true,
                   help: "production refuses unknown fields; in development they are what CloudKit would add",
                   values: ["production", "development"], defaultValue: "production"),
        OptionSpec(name: "batch", short: nil, takesValue: true,
                   help: "check each run of N records as one modify operation (400 items, 2 MB, parent references)", valueName: "N"),
        OptionSpec(name: "max-errors", short: nil, takesValue: true, help: "stop after N errors", valueName: "N"),
        OptionSpec(name: "infer", short: nil, takesValue: false,
                   help: "development: print the schema change, as YAML, that CloudKit would make from the records (text: stdout after the report; other formats: stderr)"),
        OptionSpec(name: "jobs", short: "j", takesValue: true, help: "threads", valueName: "N", defaultValue: "the number of cores"),
        OptionSpec(name: "input-format", short: nil, takesValue: true, help: "the record file format, instead of detecting it",
                   values: ["ndjson", "json", "yaml"]),
    ] + CommonOptions.report + CommonOptions.model
    static let help = """
        FILE is an NDJSON file (one record a line), a JSON array of records, or YAML;
        '-' reads standard input. Records are in the CloudKit Web Services shape
        ({recordName, recordType, fields: {f: {value, type}}}), cktool's
        ({type: "stringType", value}) or the plain shape (fields: {f: value});
        docs/records.md describes them. Checks and their codes (CK4xx): docs/rules.md.
        Diagnostics never contain the value of an encrypted field.

        Exit: 0 clean, 1 findings, 2 a file could not be read or a record is malformed.

        example:
          ckschema validate --env production Schemas/fixtures/seed-trips.ndjson
          cat export.ndjson | ckschema validate --env development --infer -
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        let format = try CommonOptions.outputFormat(args)
        let config = try CommonOptions.configuration(args)
        let failOn = try CommonOptions.failOn(args, config: config)
        var env = Environment.production
        if let e = args.value("env") {
            guard let v = Environment(rawValue: e) else { throw UsageError("'\(e)' is not an environment; use production or development") }
            env = v
        }
        let schemaPath: String
        if let s = args.value("schema") { schemaPath = s }
        else if env == .production { schemaPath = try SchemaArguments.production(nil, config: config) }
        else { schemaPath = try SchemaArguments.development(nil, config: config) }
        let files = args.positionals
        if files.isEmpty { throw UsageError("no record file given; name one or more files, or '-' for standard input") }
        func positive(_ name: String) throws(UsageError) -> Int? {
            guard let v = args.value(name) else { return nil }
            guard let n = Int(v), n > 0 else { throw UsageError("--\(name) needs a positive whole number, not '\(v)'") }
            return n
        }
        let batch = try positive("batch")
        let maxErrors = try positive("max-errors")
        let jobs = try positive("jobs") ?? RecordValidator.defaultJobs
        var inputFormat: RecordFormat?
        if let f = args.value("input-format") {
            guard let v = RecordFormat(rawValue: f) else { throw UsageError("'\(f)' is not an input format; use ndjson, json or yaml") }
            inputFormat = v
        }
        let infer = args.flag("infer")
        if infer && env != .development { throw UsageError("--infer needs --env development: production never adds fields") }

        let schema = try SchemaSource.load(path: schemaPath, model: CommonOptions.modelSelection(args, config: config))
        let progress = Output.stderrIsTerminal ? ProgressLine() : nil
        let options = RecordValidator.Options(
            batchSize: batch, maxErrors: maxErrors, infer: infer, jobs: jobs, format: inputFormat,
            progress: progress.map { p in { @Sendable v in p.show(v) } })
        let validator = RecordValidator(schema: schema, environment: env, options: options)

        // Text, GitHub and JSON stream out as found (memory stays flat however many records
        // fail); SARIF keeps at most code scanning's 25,000 results and says so.
        // The source line is never shown: it would print field values, encrypted ones too.
        let renderer = DiagnosticRenderer(format: format, command: name, showSource: false, rules: RuleCatalog.info)
        var report = StreamingReport(format: format, command: name, rules: RuleCatalog.info)
        var buffer = report.begin()
        let out = io
        var lastFlush = Date()
        let summary = validator.validate(files: files) { d in
            switch format {
            case .text: buffer += renderer.renderText(d)
            case .github: buffer += renderer.render([d])
            case .json, .sarif, .markdown: buffer += report.add(d)
            }
            if buffer.utf8.count > 32 * 1024 || Date().timeIntervalSince(lastFlush) > 0.2 {
                progress?.clear()
                out.write(buffer)
                buffer = ""
                lastFlush = Date()
            }
        }
        progress?.clear()
        out.write(buffer)
        if format == .json || format == .sarif || format == .markdown { out.write(report.end()) }
        if format == .text {
            var parts = ["\(summary.records) record" + (summary.records == 1 ? "" : "s")]
            if summary.errors > 0 { parts.append("\(summary.errors) error" + (summary.errors == 1 ? "" : "s")) }
            if summary.warnings > 0 { parts.append("\(summary.warnings) warning" + (summary.warnings == 1 ? "" : "s")) }
            if summary.notes > 0 { parts.append("\(summary.notes) note" + (summary.notes == 1 ? "" : "s")) }
            if summary.stoppedEarly { parts.append("stopped after --max-errors \(maxErrors ?? 0)") }
            out.write(parts.joined(separator: ", ") + "\n")
        }
        if infer {
            if format == .text { out.write(summary.inferred.yaml) } else { out.error(summary.inferred.yaml) }
        }
        if summary.unreadableFiles > 0 || summary.malformedRecords > 0 { return .failure }
        let failed = failOn == .warning ? summary.errors + summary.warnings > 0 : summary.errors > 0
        return failed ? .findings : .success
    }
}

/// The records-per-second line a terminal shows on standard error while validating.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var shown = false

    func show(_ p: ValidationProgress) {
        lock.lock()
        defer { lock.unlock() }
        let rate = p.seconds > 0 ? Double(p.records) / p.seconds : 0
        let mb = Double(p.bytes) / 1_048_576
        let line = String(format: "\r%d records, %.1f MB, %.0f records/s", p.records, mb, rate)
        FileHandle.standardError.write(Data(line.utf8))
        shown = true
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); shown = false }
    }
}
