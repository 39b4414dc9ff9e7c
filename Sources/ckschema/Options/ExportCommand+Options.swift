import CKSchema

extension ExportCommand {
    /// The languages export writes.
    enum Language: String, CaseIterable, Sendable { case ckdb, yaml, jsonschema }

    /// export's options: the language, the file, and the schema source.
    struct Options: ParsableOptions {
        @Positionals(.optional("SCHEMA")) var paths: [String]
        @Opt(Option.choice("format", help: "the output language", values: Language.allCases, default: "ckdb",
                           noun: "an export format").or(Language.ckdb)) var language: Language
        @Opt(.path("output", short: "o", help: "write to FILE instead of standard output", valueName: "FILE")) var output: String?
        @Opt(CommonOptions.failOn) var failOn: Severity?
        @Opt(CommonOptions.config) var configPath: String?
        @Group var model: ModelOptions

        var path: String? { paths.first }

        func validate() throws(UsageError) {
            if paths.count > 1 { throw UsageError("export takes one schema source") }
        }
    }
}
