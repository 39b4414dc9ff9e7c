import CKSchema

extension VerifyCommand {
    /// verify's options: the environment, the plan, the baseline refresh, how to reach CloudKit.
    struct Options: ParsableOptions {
        static let env = Option.choice("env", help: "the CloudKit environment to check", values: [Environment.production, .development],
                                       default: "production", noun: "an environment").or(Environment.production)
        static let planOption = Option.path("plan", help: "the plan the deploy carried out (promote --plan); refused when stale",
                                            default: "the plan from ckschema.yaml's production schema to the development schema")
        static let updateFlag = Flag("update", help: "when production has every planned change, write its export over ckschema.yaml's production schema (a .ckdb file)")
        static let specs = [env.spec, planOption.spec, updateFlag.spec, CommonOptions.format.spec, CommonOptions.config.spec]
            + PullOptions.specs + ModelOptions.specs

        var environment: Environment
        var plan: String?
        var update: Bool
        var schema: String?
        var format: OutputFormat
        var configPath: String?
        var target: PullOptions
        var model: ModelOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            let p = arguments.positionals
            if p.count > 1 { throw UsageError("verify takes one schema, the development schema; got \(p.count)") }
            schema = p.first
            environment = try arguments.value(Self.env)
            plan = try arguments.value(Self.planOption)
            update = arguments.flag(Self.updateFlag)
            if update && environment != .production { throw UsageError("--update refreshes the production baseline; it needs --env production") }
            format = try arguments.value(CommonOptions.format)
            configPath = try arguments.value(CommonOptions.config)
            target = try PullOptions(arguments)
            model = try ModelOptions(arguments)
        }
    }
}
