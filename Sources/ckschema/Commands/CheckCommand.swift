import CKSchema

/// `ckschema check`: the CI gate. Runs every check ckschema.yaml configures and exits
/// with the worst result.
enum CheckCommand: OptionsCommand {
    static let name = "check"
    static let summary = "The CI gate: run every configured check (lint, promote, validate, migrate status)."
    static let help = """
        Runs, in order, each check that ckschema.yaml configures (its 'check:' list, or
        every check whose inputs it names) and exits with the worst result: 0 clean,
        1 findings at or above --fail-on, 2 a check could not run.

        example:
          ckschema check --format github
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        guard let config = try options.report.configuration() else {
            throw UsageError("no ckschema.yaml found in this folder or its parents; run 'ckschema init' or pass --config")
        }
        if let pull = options.pull {
            // A pull that fails stops the gate: checking against a stale production would pass what the live one refuses.
            let pulled = try pull.pull(environment: .production, output: nil, config: config)
            io.error(PullOptions.message(pulled, environment: .production))
        }
        let report = Check.run(config)
        let failOn = options.report.failOn(config)
        let code: ExitCode = report.failed ? .failure : report.fails(on: failOn) ? .findings : .success
        io.conclude(report.diagnostics, format: options.report.format, command: name, failed: code != .success, steps: report.ran,
                    failedSteps: report.failedChecks(on: failOn))
        return code
    }
}
