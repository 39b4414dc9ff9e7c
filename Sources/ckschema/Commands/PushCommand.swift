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
        let result = try SchemaPusher.push(request) { changes in
            io.write("development of \(container): \(changes.changes.count) change\(changes.changes.count == 1 ? "" : "s")\n")
            for c in changes.changes { io.write("  " + ControlCharacters.escaped(c.description) + "\n") }
            if options.yes { return true }
            io.error("import into the development environment of \(container)? this replaces its whole schema [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
        if !result.exportNotes.isEmpty {
            io.error("note: the .ckdb export leaves out \(result.exportNotes.count) thing\(result.exportNotes.count == 1 ? "" : "s") CloudKit's schema language cannot say ('ckschema export --format ckdb' lists them)\n")
        }
        switch result.stage {
        case .gateRefused, .serverRefused:
            io.conclude(result.findings, format: options.deploy.format, command: name, failed: true,
                        steps: result.stage == .gateRefused ? ["lint", "promote"] : ["lint", "promote", "cktool"])
            return .findings
        case .checkedOffline:
            io.write("push --offline: lint, the production gate and the .ckdb export (\(result.bytes) bytes) passed; cktool was not run\n")
        case .validated:
            io.write("push --dry-run: CloudKit validated the schema (\(result.bytes) bytes of .ckdb); nothing was imported\n")
        case .upToDate:
            io.write("the development environment of \(container) already has this schema; nothing was imported\n")
        case .declined:
            io.write("nothing was imported\n")
            return .findings
        case .imported:
            io.write("imported the schema into the development environment of \(container)\n")
        }
        return .success
    }
}
