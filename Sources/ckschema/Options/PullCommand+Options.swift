import CKSchema

extension PullCommand {
    /// pull's options: the environment, where to write, and how to reach CloudKit.
    struct Options: ParsableOptions {
        @Opt(Option.choice("env", help: "the CloudKit environment", values: [Environment.production, .development],
                           default: "production", noun: "an environment").or(Environment.production)) var environment: Environment
        @Opt(.path("output", short: "o", help: "write the schema to FILE", valueName: "FILE",
                   default: "the environment's schema in ckschema.yaml, when it is a .ckdb file")) var output: String?
        @Group var target: PullOptions
        @Opt(CommonOptions.config) var configPath: String?
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("pull takes no positional arguments; name the file with -o") }
        }
    }
}
