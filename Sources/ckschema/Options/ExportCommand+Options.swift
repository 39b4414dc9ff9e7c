import CKSchema

extension ExportCommand {
    /// The languages export writes.
    enum Language: String, CaseIterable, Sendable { case ckdb, yaml, jsonschema }

    /// export's options: the language, the file, and the schema source.
    struct Options: ParsableOptions {
        static let formatOption = Option.choice("format", help: "the output language", values: Language.allCases, default: "ckdb",
                                                noun: "an export format").or(Language.ckdb)
        static let outputOption = Option.path("output", short: "o", help: "write to FILE instead of standard output", valueName: "FILE")
        static let specs = [formatOption.spec, outputOption.spec, CommonOptions.failOn.spec, CommonOptions.config.spec] + ModelOptions.specs
        var language: Language
        var output: String?
        var failOn: Severity?
        var configPath: String?
        var model: ModelOptions
        var path: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            language = try arguments.value(Self.formatOption)
            if arguments.positionals.count > 1 { throw UsageError("export takes one schema source") }
            path = arguments.positionals.first
            output = try arguments.value(Self.outputOption)
            failOn = try arguments.value(CommonOptions.failOn)
            configPath = try arguments.value(CommonOptions.config)
            model = try ModelOptions(arguments)
        }
    }
}
