import CKSchema

extension CheckCommand {
    /// check's options: the report, and whether to pull production first.
    struct Options: ParsableOptions {
        @Group var report: PlanReportOptions
        @Opt(Flag("pull", help: "first refresh the production schema from CloudKit, as 'ckschema pull' does, then gate against it")) var pullFlag: Bool
        @Group(within: "pull") var target: PullOptions
        @Positionals() var words: [String]

        /// How to reach CloudKit, when --pull is given.
        var pull: PullOptions? { pullFlag ? target : nil }

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("check takes no positional arguments; it reads ckschema.yaml") }
        }
    }
}
