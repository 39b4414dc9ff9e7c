import CKSchema

extension PullCommand {
    /// pull's options: the environment, where to write, and how to reach CloudKit.
    struct Options: ParsableOptions {
        static let env = Option.choice("env", help: "the CloudKit environment", values: [Environment.production, .development],
                                       default: "production", noun: "an environment").or(Environment.production)
        static let outputOption = Option.path("output", short: "o", help: "write the schema to FILE", valueName: "FILE",
                                              default: "the environment's schema in ckschema.yaml, when it is a .ckdb file")
        static let specs = [env.spec, PullOptions.teamID.spec, PullOptions.containerID.spec, outputOption.spec,
                            PullOptions.cktool.spec, PullOptions.timeout.spec, CommonOptions.config.spec]

        var environment: Environment
        var output: String?
        var target: PullOptions
        var configPath: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            if !arguments.positionals.isEmpty { throw UsageError("pull takes no positional arguments; name the file with -o") }
            environment = try arguments.value(Self.env)
            output = try arguments.value(Self.outputOption)
            target = try PullOptions(arguments)
            configPath = try arguments.value(CommonOptions.config)
        }
    }
}
