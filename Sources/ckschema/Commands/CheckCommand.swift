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
        let report = Check.run(config)
        let code: ExitCode = report.failed ? .failure : report.fails(on: failOn) ? .findings : .success
        io.conclude(report.diagnostics, format: format, command: name, failed: code != .success, steps: report.ran)
        return code
    }
}
