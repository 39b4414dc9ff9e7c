import CKSchema
import Foundation

/// `ckschema push [SCHEMA]`: the development schema to CloudKit's development environment,
/// through cktool, after lint and the production gate (`SchemaPusher.push`).
enum PushCommand: OptionsCommand {
    static let name = "push"
    static let summary = "Send the development schema to CloudKit's development environment through cktool (the server validates first)."
    static let help = """
        SCHEMA is any schema source (default: the development schema in ckschema.yaml). In
        order: lint and the production gate against the committed production schema (a
        refusal stops here, before CloudKit is touched); the .ckdb export; 'cktool
        validate-schema' (CloudKit's dry run; a refusal is reported at the schema's own line);
        with --dry-run, stop; else the current development schema is pulled and the changes
        are shown, then 'cktool import-schema', which replaces the whole development schema.
        At a terminal push asks first; elsewhere (CI) it needs --yes. Nothing in the
        repository is written. Production changes only in CloudKit Console: see
        'ckschema promote --format markdown'. Exit 1 when the gate or CloudKit refuses the
        schema, or the import is declined.

        example:
          ckschema push --dry-run --offline
          ckschema push --dry-run
          ckschema push --yes
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let (config, devPath) = try options.deploy.development()
        let prodPath = try SchemaArguments.production(nil, config: config)
        let interactive = isatty(0) == 1 && isatty(2) == 1
        if !options.dryRun && !options.yes && !interactive {
            throw UsageError("push imports into development, and asks first; with no terminal (CI) pass --yes, or --dry-run to stop after validation")
        }
        let (exported, development) = try SchemaSource.loadPair(from: prodPath, to: devPath, model: options.deploy.model.selection(config))
        // The gate plans from production as `promote --plan` does: a `.ckdb` with the zones,
        // `requires:` and queries it cannot say filled in from the store's production.
        let storePath = Configuration.storePath(nil, config: config)
        let store = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
        let production = try ProductionRecord.planned(exported, development: development, store: store)
        let session = options.offline ? nil : try options.deploy.target.session(config: config)
        let request = SchemaPusher.Request(development: development, production: production, lint: config?.lint ?? RuleSettings(),
                                           promote: config?.promote ?? RuleSettings(), session: session, dryRun: options.dryRun)
        let container = ControlCharacters.escaped(session?.container ?? "")
        // With --format json or sarif standard output is one document: what push would print
        // as lines goes into it, and the changes shown before the import go to standard error.
        let format = options.deploy.format, structured = format == .json || format == .sarif
        let result = try SchemaPusher.push(request) { changes in
            var listing = "development of \(container): \(changes.changes.count) change\(changes.changes.count == 1 ? "" : "s")\n"
            for c in changes.changes { listing += "  " + ControlCharacters.escaped(c.description) + "\n" }
            if structured { io.error(listing) } else { io.write(listing) }
            if options.yes { return true }
            io.error("import into the development environment of \(container)? this replaces its whole schema [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
        if !result.exportNotes.isEmpty {
            io.error("note: the .ckdb export leaves out \(result.exportNotes.count) thing\(result.exportNotes.count == 1 ? "" : "s") CloudKit's schema language cannot say ('ckschema export --format ckdb' lists them)\n")
        }
        let line: String?
        switch result.stage {
        case .gateRefused, .serverRefused: line = nil
        case .checkedOffline: line = "push --offline: lint, the production gate and the .ckdb export (\(result.bytes) bytes) passed; cktool was not run"
        case .validated: line = "push --dry-run: CloudKit validated the schema (\(result.bytes) bytes of .ckdb); nothing was imported"
        case .upToDate: line = "the development environment of \(container) already has this schema; nothing was imported"
        case .declined: line = "nothing was imported"
        case .imported: line = "imported the schema into the development environment of \(container)"
        }
        let code: ExitCode = result.refused || result.stage == .declined ? .findings : .success
        let properties: [(String, JSONValue)] = [("push", .object([
            ("environment", .string(Environment.development.rawValue)),
            ("container", .optional(session?.container)),
            ("stage", .string(result.stage.rawValue)),
            ("bytes", .int(result.bytes)),
            ("changes", .array((result.changes?.changes ?? []).map { .string($0.description) })),
            ("exportNotes", .int(result.exportNotes.count)),
            ("message", .optional(line)),
        ]))]
        if result.refused || structured {
            io.conclude(result.findings, format: format, command: name, failed: code != .success,
                        steps: result.stage == .gateRefused ? ["lint", "promote"] : result.stage == .serverRefused ? ["lint", "promote", "cktool"] : [],
                        properties: properties)
        } else if let line {
            io.write(line + "\n")
        }
        return code
    }
}
