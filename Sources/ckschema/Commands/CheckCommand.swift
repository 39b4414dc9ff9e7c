import CKSchema

/// `ckschema check`: the CI gate. Runs every check ckschema.yaml configures and exits
/// with the worst result.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "The CI gate: run every configured check (lint, promote, validate, migrate status)."
    static let usage = "ckschema check [--format text|json|github|sarif] [--fail-on warning|error] [--config PATH]"
    static let options = CommonOptions.report
    static let help = """
        Runs, in order, each check that ckschema.yaml configures (its 'check:' list, or
        every check whose inputs it names) and exits with the worst result: 0 clean,
        1 findings at or above --fail-on, 2 a check could not run.

        options:
        \(CommonOptions.reportHelp)

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
        let enabled = config.checks ?? Configuration.checkNames
        var all: [Diagnostic] = []
        var failed = false
        for name in enabled {
            guard let result = step(name, config) else { continue }
            all += result.diagnostics
            failed = failed || result.failed
        }
        io.report(all, format: format, command: name)
        if failed { return .failure }
        return Output.exitCode(for: all, failOn: failOn)
    }

    /// Runs one check by name; nil means its inputs are not configured.
    static func step(_ name: String, _ config: Configuration) -> StepResult? {
        switch name {
        case "lint": lintStep(config)
        case "promote": promoteStep(config)
        case "validate": validateStep(config)
        default: nil
        }
    }

    static func capture(_ body: () throws(InputError) -> [Diagnostic]) -> StepResult {
        do { return StepResult(diagnostics: try body()) } catch { return StepResult(diagnostics: error.diagnostics, failed: true) }
    }

    /// Production -> development: forbidden changes are errors, review ones warnings. Lint
    /// errors stop the plan; the lint step reports them, unless it is not configured.
    static func promoteStep(_ config: Configuration) -> StepResult? {
        guard let dev = config.developmentSchema, let prod = config.productionSchema else { return nil }
        return capture { () throws(InputError) in
            let (from, to) = try Promoter.load(from: prod, to: dev)
            let result = Promoter.check(from: from, to: to, lint: config.lint, hashing: false)
            let lintRuns = (config.checks ?? Configuration.checkNames).contains("lint")
            return (lintRuns ? [] : result.lintErrors) + (result.plan?.diagnostics(minimum: .review) ?? [])
        }
    }

    static func lintStep(_ config: Configuration) -> StepResult? {
        guard let dev = config.developmentSchema else { return nil }
        return capture { () throws(InputError) in try LintCommand.lint(path: dev, config: config) }
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
}
