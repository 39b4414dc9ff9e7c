import CKSchema

extension CheckCommand {
    /// check's options: the report, and whether to pull production first.
    struct Options: ParsableOptions {
        static let pull = Flag("pull", help: "first refresh the production schema from CloudKit, as 'ckschema pull' does, then gate against it")
        static let specs = ReportOptions.specs + [pull.spec] + PullOptions.specs
        var report: ReportOptions
        var pull: PullOptions?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            let target = try PullOptions(arguments)
            pull = arguments.flag(Self.pull) ? target : nil
            if !arguments.positionals.isEmpty { throw UsageError("check takes no positional arguments; it reads ckschema.yaml") }
        }
    }
}
