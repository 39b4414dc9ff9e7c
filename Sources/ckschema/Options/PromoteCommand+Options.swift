import CKSchema

extension PromoteCommand {
    /// promote's options: the plan files, the gate's class, FROM and TO.
    struct Options: ParsableOptions {
        @Opt(Flag("check", help: "the CI gate: exit 1 on a lint error or a forbidden change (or, with --fail-on warning, one that needs review); reports only errors and warnings"))
        var check: Bool
        @Opt(.path("plan", help: "write the plan as JSON (with both schemas' SHA-256)")) var plan: String?
        @Opt(.path("verify-plan", help: "refuse a plan file that is not JSON, is from another format version, or was computed from other schemas (exit 2), or whose steps are not the steps its schemas give (exit 1, naming the first)"))
        var verifyPlan: String?
        @Opt(.path("apply", help: "deploy the development schema to the local store's production environment, as the CloudKit Console does: schema only, no records; refused when PLAN is stale or the store's production schema is not FROM (exit 2), or PLAN's steps differ from what the schemas give or one is forbidden (exit 1)",
                   valueName: "PLAN")) var apply: String?
        @Opt(Option.path("store", help: "the store for --apply", default: "ckschema.yaml's store").within("apply")) var store: String?
        @Opt(CommonOptions.format) var format: OutputFormat
        @Opt(Options.failOnOption) var failOn: ChangeClass?
        @Opt(CommonOptions.config) var configPath: String?
        @Group var schemas: SchemaPairOptions

        /// The words every command's --fail-on takes (`CommonOptions.failOnWords`), each the
        /// class of the least step that fails: a step reports with its class's severity (safe:
        /// note, review: warning, forbidden: error), so `note` fails on any step. `forbidden`,
        /// the class's own name, is accepted too.
        static let failOnOption = Option<ChangeClass?>(
            spec: OptionSpec(name: "fail-on", short: nil, takesValue: true,
                             help: "lowest severity that fails (a review step is a warning, a forbidden one an error, a safe one a note; forbidden is accepted too)",
                             values: CommonOptions.failOnWords(review: true), defaultValue: "error, or lint.failOn"),
            defaultValue: nil) { (text: String) throws(UsageError) -> ChangeClass? in
                switch text {
                case "error", "forbidden": return .forbidden
                case "warning", "review": return .review
                case "note": return .safe
                default: throw UsageError("'\(text)' is not a severity for --fail-on; use \(UsageError.list(CommonOptions.failOnWords(review: true)))")
                }
            }
    }
}
