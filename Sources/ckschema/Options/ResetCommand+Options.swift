import CKSchema

extension ResetCommand {
    /// reset's options: the environment (only development can be reset), the consent, and
    /// how to reach CloudKit.
    struct Options: ParsableOptions {
        @Opt(Option.choice("env", help: "the environment to reset; only development can be", values: [Environment.development, .production],
                           noun: "an environment").required()) var given: Environment?
        @Opt(Flag("yes", short: "y", help: "reset: without it nothing is deleted")) var yes: Bool
        @Opt(CommonOptions.config) var configPath: String?
        @Group var target: PullOptions
        @Positionals() var words: [String]

        /// The environment, which `validate()` has checked is development.
        var environment: Environment { given ?? .development }

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("reset takes no positional arguments") }
            guard let e = given else { throw UsageError("reset needs --env development (say which environment is reset)") }
            if e == .production {
                throw UsageError("CloudKit cannot reset production (cktool reset-schema resets development to production); refused")
            }
        }
    }
}
