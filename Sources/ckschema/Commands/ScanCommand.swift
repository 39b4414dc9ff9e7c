import CKSchema

/// `ckschema scan [PATH...]`: the app's CloudKit calls checked against a schema environment.
enum ScanCommand: OptionsCommand {
    static let name = "scan"
    static let summary = "Check the app's CloudKit calls (records, fields, queries, zones, subscriptions) against the production schema."
    static let help = """
        PATH is a Swift file or a folder of Swift sources (recursive; .build, DerivedData and
        Pods are skipped); without one, ckschema.yaml's 'code:' list. Each CloudKit call the
        scan can resolve (literals, constants, enum cases, locals) is checked against the
        schema of --env (default production): record types and fields written and read,
        queries and sorts, zones, subscriptions and databases. A call it cannot resolve is
        not checked (--verbose lists it). '// ckschema-disable CK901: reason' silences a line.
        --format json prints the app's CloudKit surface (docs/scan.md).

        example:
          ckschema scan App --schema Schemas/production.ckdb
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try options.report.configuration()
        let paths = options.paths.isEmpty ? (config?.code ?? []) : options.paths
        guard !paths.isEmpty else { throw UsageError("scan needs a PATH to Swift sources, or 'code:' in ckschema.yaml") }
        let schemaPath = try options.schema ?? (options.environment == .production
            ? SchemaArguments.production(nil, config: config) : SchemaArguments.development(nil, config: config))
        let schema = try SchemaSource.load(path: schemaPath, model: options.model.selection(config))
        let result = CodeScan.run(paths: paths, schema: schema, environment: options.environment, lint: config?.lint ?? RuleSettings(), container: config?.container)
        let shown = result.diagnostics + (options.verbose ? result.notes : [])
        let code: ExitCode = result.failed ? .failure : Output.exitCode(for: result.diagnostics, failOn: options.report.failOn(config))
        if options.report.format == .json {
            io.write(result.surface.json(subscriptions: result.subscriptions, databases: result.subscriptionDatabases, diagnostics: shown.sortedByLocation()).rendered(pretty: true) + "\n")
        } else {
            io.conclude(shown.sortedByLocation(), format: options.report.format, command: name, failed: code != .success)
        }
        return code
    }
}
