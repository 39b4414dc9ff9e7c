import Foundation
import CKSchema

/// `ckschema check`: the CI gate. Runs every check ckschema.yaml configures and exits
/// with the worst result.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "The CI gate: run every configured check (lint, promote, validate, migrate status)."
    static let usage = "ckschema check [--pull [--team-id T] [--container-id C] [--cktool PATH]] [--format text|json|github|sarif|markdown] [--fail-on warning|error] [--config PATH]"
    static let options = CommonOptions.report + [
        OptionSpec(name: "pull", short: nil, takesValue: false,
                   help: "first refresh the production schema from CloudKit, as 'ckschema pull' does, then gate against it"),
        PullCommand.teamID, PullCommand.containerID, PullCommand.cktool,
    ]
    static let help = """
        Runs, in order, each check that ckschema.yaml configures (its 'check:' list, or
        every check whose inputs it names) and exits with the worst result: 0 clean,
        1 findings at or above --fail-on, 2 a check could not run.

        example:
          ckschema check --format github
        """

    /// One check's result: its findings, or the input error that stopped it.
    struct StepResult {
        var diagnostics: [Diagnostic] = []
        var failed = false
    }

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        let format = try CommonOptions.outputFormat(args)
        guard let config = try CommonOptions.configuration(args) else {
            throw UsageError("no ckschema.yaml found in this folder or its parents; run 'ckschema init' or pass --config")
        }
        if !args.positionals.isEmpty { throw UsageError("check takes no positional arguments; it reads ckschema.yaml") }
        let failOn = try CommonOptions.failOn(args, config: config)
        if args.flag("pull") {
            // A pull that fails stops the gate: checking against a stale production would pass what the live one refuses.
            let pulled = try PullCommand.pull(environment: .production, args: args, config: config)
            io.error(PullCommand.message(pulled, environment: .production))
        }
        let enabled = config.checks ?? Configuration.checkNames
        var all: [Diagnostic] = []
        var failed = false
        var ran: [String] = []
        let schemas = SchemaCache()
        schemas.model = config.model ?? ModelSelection()
        for name in enabled {
            guard let result = step(name, config, schemas) else { continue }
            ran.append(name == "migrate" ? "migrations" : name)
            all += result.diagnostics
            failed = failed || result.failed
        }
        let code = failed ? ExitCode.failure : Output.exitCode(for: all, failOn: failOn)
        io.conclude(all, format: format, command: name, failed: code != .success, steps: ran)
        return code
    }

    /// The schema sources of one run, each loaded once. A source that cannot be read is
    /// reported by the first step that needs it; later steps are skipped silently, so one
    /// malformed file is one set of diagnostics, not one per check.
    final class SchemaCache {
        private var loaded: [String: Schema?] = [:]
        /// The Core Data model version and configuration ckschema.yaml names.
        var model = ModelSelection()

        /// The schema, or nil when it failed (its errors go into `result` the first time).
        func schema(_ path: String, _ result: inout StepResult) -> Schema? {
            if let known = loaded[path] {
                if known == nil { result.failed = true }
                return known
            }
            do {
                let schema = try SchemaSource.load(path: path, model: model)
                loaded[path] = schema
                return schema
            } catch {
                loaded[path] = .some(nil)
                result.diagnostics += error.diagnostics
                result.failed = true
                return nil
            }
        }
    }

    /// Runs one check by name; nil means its inputs are not configured.
    static func step(_ name: String, _ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        switch name {
        case "lint": lintStep(config, schemas)
        case "promote": promoteStep(config, schemas)
        case "validate": validateStep(config)
        case "migrate": migrateStep(config, schemas)
        default: nil
        }
    }

    static func capture(_ body: () throws(InputError) -> [Diagnostic]) -> StepResult {
        do { return StepResult(diagnostics: try body()) } catch { return StepResult(diagnostics: error.diagnostics, failed: true) }
    }

    /// Production -> development: forbidden changes are errors, review ones warnings. Lint
    /// errors stop the plan; the lint step reports them, unless it is not configured.
    static func promoteStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard let dev = config.developmentSchema, let prod = config.productionSchema else { return nil }
        var step = StepResult()
        let from = schemas.schema(prod, &step), to = schemas.schema(dev, &step)
        guard let from, let to else { return step }
        let result = Promoter.check(from: from, to: to, lint: config.lint, promote: config.promote, hashing: false)
        let lintRuns = (config.checks ?? Configuration.checkNames).contains("lint")
        step.diagnostics += (lintRuns ? [] : result.lintErrors) + (result.plan?.diagnostics(minimum: .review) ?? [])
        return step
    }

    static func lintStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard let dev = config.developmentSchema else { return nil }
        var step = StepResult()
        if let schema = schemas.schema(dev, &step) { step.diagnostics += Linter(configuration: config.lint).lint(schema) }
        return step
    }

    /// The record files ckschema.yaml lists, each against its environment's schema.
    static func validateStep(_ config: Configuration) -> StepResult? {
        guard !config.records.isEmpty else { return nil }
        var diagnostics: [Diagnostic] = []
        do {
            let summary = try RecordValidator.validateConfigured(config) { diagnostics.append($0) }
            return StepResult(diagnostics: diagnostics, failed: summary.unreadableFiles > 0 || summary.malformedRecords > 0)
        } catch {
            return StepResult(diagnostics: diagnostics + error.diagnostics, failed: true)
        }
    }

    /// `migrate status` for the development environment: sum file, changed/missing migrations, drift.
    /// A repository with no migration yet (an empty or absent folder) is not checked.
    static func migrateStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        // Configured when the folder has migrations, or when a store exists (its history may
        // name migrations whose files are gone: CK531).
        let names = (try? FileManager.default.contentsOfDirectory(atPath: config.migrations)) ?? []
        guard names.contains(where: { Migration.parseFileName($0) != nil }) || FileManager.default.fileExists(atPath: config.store) else { return nil }
        var step = StepResult()
        var dev: Schema?
        if let path = config.developmentSchema {
            dev = schemas.schema(path, &step)
            if dev == nil { return step }
        }
        let status = capture { () throws(InputError) in
            let folder = try MigrationFolder.load(path: config.migrations)
            let store = FileManager.default.fileExists(atPath: config.store) ? try Store(path: config.store, access: .read) : nil
            return try MigrationStatus.check(folder: folder, store: store, environment: .development, development: dev).diagnostics
        }
        step.diagnostics += status.diagnostics
        step.failed = step.failed || status.failed
        return step
    }
}
