import CKSchema

extension ResetCommand {
    /// reset's options: the environment (only development can be reset), the consent, and
    /// how to reach CloudKit.
    struct Options: ParsableOptions {
        static let env = Option.choice("env", help: "the environment to reset; only development can be", values: [Environment.development, .production],
                                       noun: "an environment")
        static let yesFlag = Flag("yes", short: "y", help: "reset: without it nothing is deleted")
        static let specs = [env.spec, yesFlag.spec, CommonOptions.config.spec] + PullOptions.specs

        var environment: Environment
        var yes: Bool
        var configPath: String?
        var target: PullOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            if !arguments.positionals.isEmpty { throw UsageError("reset takes no positional arguments") }
            guard let e = try arguments.value(Self.env) else { throw UsageError("reset needs --env development (say which environment is reset)") }
            if e == .production {
                throw UsageError("CloudKit cannot reset production (cktool reset-schema resets development to production); refused")
            }
            environment = e
            yes = arguments.flag(Self.yesFlag)
            configPath = try arguments.value(CommonOptions.config)
            target = try PullOptions(arguments)
        }
    }
}
