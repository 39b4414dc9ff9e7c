import CKSchema

extension ResetCommand {
    /// reset's options: the environment (only development can be reset), the consent, and
    /// how to reach CloudKit.
    struct Options: ParsableOptions {
        /// Only development can be reset, so usage and completions offer only it; production is
        /// refused with the reason, before anything runs.
        @Opt(Option<Environment?>(spec: OptionSpec(name: "env", short: nil, takesValue: true, help: "the environment to reset; only development can be",
                                                   values: ["development"], required: true), defaultValue: nil) { (text: String) throws(UsageError) -> Environment? in
            switch text {
            case "development": return .development
            case "production": throw UsageError("CloudKit cannot reset production (cktool reset-schema resets development to production); refused")
            default: throw UsageError("'\(text)' is not an environment; use development or production")
            }
        }) var given: Environment?
        @Opt(Flag("yes", short: "y", help: "reset: without it nothing is deleted")) var yes: Bool
        @Opt(CommonOptions.config) var configPath: String?
        @Group var target: PullOptions
        @Positionals() var words: [String]

        /// The environment, which decoding and `validate()` have checked is development.
        var environment: Environment { given ?? .development }

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("reset takes no positional arguments") }
            guard given != nil else { throw UsageError("reset needs --env development (say which environment is reset)") }
        }
    }
}
