import CKSchema

/// `ckschema validate FILE...`: records checked against the schema of the environment
/// they are headed for, streamed, diagnostics in input order.
enum ValidateCommand: OptionsCommand {
    static let name = "validate"
    static let summary = "Check records (NDJSON, JSON, YAML) against a schema the way CloudKit's server would."
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

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try options.report.configuration()
        let schemaPath = try options.schema ?? (options.environment == .production
            ? SchemaArguments.production(nil, config: config) : SchemaArguments.development(nil, config: config))
        let schema = try SchemaSource.load(path: schemaPath, model: options.model.selection(config))
        let progress = Output.stderrIsTerminal ? ProgressLine() : nil
        let validator = RecordValidator(schema: schema, environment: options.environment, options: .init(
            batchSize: options.batch, maxErrors: options.maxErrors, infer: options.infer, jobs: options.jobs,
            format: options.inputFormat, progress: progress.map { p in { @Sendable v in p.show(v) } }))
        let out = io
        var stream = DiagnosticStream(format: options.report.format, command: name, rules: RuleCatalog.info) { chunk in
            progress?.clear()
            out.write(chunk)
        }
        let summary = validator.validate(files: options.files) { stream.add($0) }
        stream.finish()
        progress?.clear()
        if options.report.format == .text { out.write(summary.line(maxErrors: options.maxErrors) + "\n") }
        if options.infer {
            if options.report.format == .text { out.write(summary.inferred.yaml) } else { out.error(summary.inferred.yaml) }
        }
        if summary.failed { return .failure }
        return summary.fails(on: options.report.failOn(config)) ? .findings : .success
    }
}
