import CKSchema

extension PromoteCommand {
    /// promote's options: the plan files, the gate's class, FROM and TO.
    struct Options: ParsableOptions {
        static let checkFlag = Flag("check", help: "the CI gate: exit 1 if a change is forbidden (or, with --fail-on review, needs review); reports only those")
        static let planOption = Option.path("plan", help: "write the plan as JSON (with both schemas' SHA-256)")
        static let verifyPlanOption = Option.path("verify-plan", help: "refuse (exit 2) a plan file that is not JSON, is from another format version, or was computed from other schemas")
        static let applyOption = Option.path("apply", help: "deploy the development schema to the local store's production environment, as the CloudKit Console does: schema only, no records; refused (exit 2) when PLAN is stale or has a forbidden step, or the store's production schema is not FROM",
                                             valueName: "PLAN")
        static let storeOption = Option.path("store", help: "the store for --apply", default: "ckschema.yaml's store")
        /// review or forbidden; warning and error are accepted as their severities.
        static let failOnOption = Option<ChangeClass?>(
            spec: OptionSpec(name: "fail-on", short: nil, takesValue: true, help: "lowest class that fails --check", values: ["review", "forbidden"],
                             defaultValue: "forbidden, or review when ckschema.yaml's lint.failOn is warning"),
            defaultValue: nil) { (text: String) throws(UsageError) -> ChangeClass? in
                switch text {
                case "forbidden", "error": return .forbidden
                case "review", "warning": return .review
                default: throw UsageError("'\(text)' is not a class for --fail-on; use review or forbidden")
                }
            }
        static let specs = [checkFlag.spec, planOption.spec, verifyPlanOption.spec, applyOption.spec, storeOption.spec,
                            CommonOptions.format.spec, failOnOption.spec, CommonOptions.config.spec] + SchemaPairOptions.specs

        var check: Bool
        var plan, verifyPlan, apply, store, configPath: String?
        var format: OutputFormat
        var failOn: ChangeClass?
        var schemas: SchemaPairOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            format = try arguments.value(CommonOptions.format)
            configPath = try arguments.value(CommonOptions.config)
            failOn = try arguments.value(Self.failOnOption)
            schemas = try SchemaPairOptions(arguments)
            check = arguments.flag(Self.checkFlag)
            plan = try arguments.value(Self.planOption)
            verifyPlan = try arguments.value(Self.verifyPlanOption)
            apply = try arguments.value(Self.applyOption)
            store = try arguments.value(Self.storeOption)
        }
    }
}
