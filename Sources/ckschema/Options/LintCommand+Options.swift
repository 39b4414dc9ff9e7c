import CKSchema

extension LintCommand {
    /// lint's options: the report, the Core Data model, and the schema sources.
    struct Options: ParsableOptions {
        static let specs = ReportOptions.specs + ModelOptions.specs
        var report: ReportOptions
        var model: ModelOptions
        var paths: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            report = try ReportOptions(arguments)
            model = try ModelOptions(arguments)
            paths = arguments.positionals
        }
    }
}
