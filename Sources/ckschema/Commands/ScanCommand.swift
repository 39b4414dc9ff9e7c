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
        not checked (--verbose lists it). Without a schema (no --schema, none in ckschema.yaml)
        only the checks that need none run: a predicate CloudKit refuses (OR), a subscription
        on the default zone or in the wrong database, too many desired keys, the default
        zone's changes fetched or the zone deleted. '// ckschema-disable CK901: reason'
        silences a line. --format json prints the app's CloudKit surface (docs/scan.md).

        example:
          ckschema scan App --schema Schemas/production.ckdb
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try options.report.configuration()
        let paths = options.paths.isEmpty ? (config?.code ?? []) : options.paths
        guard !paths.isEmpty else { throw UsageError("scan needs a PATH to Swift sources, or 'code:' in ckschema.yaml") }
        // Without a schema the checks that need none still run, and the surface is printed.
        let schemaPath = options.schema ?? config?.schema(for: options.environment)
        let schema: Schema? = if let schemaPath { try SchemaSource.load(path: schemaPath, model: options.model.selection(config)) } else { nil }
        if schemaPath == nil {
            io.error("ckschema scan: no schema (--schema, or ckschema.yaml's 'schemas.\(options.environment.rawValue)'): only the checks that need none ran (predicates CloudKit refuses, subscriptions, the default zone's changes and deletion); record types and fields are not checked\n")
        }
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
