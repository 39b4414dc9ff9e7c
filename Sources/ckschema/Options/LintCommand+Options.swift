import CKSchema

extension LintCommand {
    /// lint's options: the report, the Core Data model, and the schema sources.
    struct Options: ParsableOptions {
        @Positionals(.any("SCHEMA")) var paths: [String]
        @Group var report: ReportOptions
        @Group var model: ModelOptions
    }
}
