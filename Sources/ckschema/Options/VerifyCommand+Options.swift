import CKSchema

extension VerifyCommand {
    /// verify's options: the environment, the plan, the baseline refresh, how to reach CloudKit.
    struct Options: ParsableOptions {
        @Opt(Option.choice("env", help: "the CloudKit environment to check", values: [Environment.production, .development],
                           default: "production", noun: "an environment").or(Environment.production)) var environment: Environment
        @Opt(.path("plan", help: "the plan the deploy carried out (promote --plan); refused when stale (exit 2), or when its steps are not the steps its schemas give (exit 1), as promote --apply refuses it",
                   default: "the plan from ckschema.yaml's production schema to the development schema")) var plan: String?
        @Opt(Flag("update", help: "when production has every planned change, write its export over ckschema.yaml's production schema (a .ckdb file)"))
        var update: Bool
        @Group var deploy: DeployOptions

        func validate() throws(UsageError) {
            if deploy.schemas.count > 1 { throw UsageError("verify takes one schema, the development schema; got \(deploy.schemas.count)") }
            if update && environment != .production { throw UsageError("--update refreshes the production baseline; it needs --env production") }
        }
    }
}
