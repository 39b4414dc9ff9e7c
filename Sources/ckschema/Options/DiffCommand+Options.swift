import CKSchema

extension DiffCommand {
    /// diff's options: the output format (text, json or markdown), the exit code, FROM and TO.
    struct Options: ParsableOptions {
        static let exitCodeFlag = Flag("exit-code", help: "exit 1 when the schemas differ, 0 when they do not")
        /// text, json or markdown; a report format (github, sarif) is refused with a pointer to promote.
        static let formatOption: Option<OutputFormat> = {
            var o = CommonOptions.format
            let convert = o.convert
            o.spec.help = "output format (json: docs/output.md)"
            o.spec.values = ["text", "json", "markdown"]
            o.convert = { (text: String) throws(UsageError) -> OutputFormat in
                let format = try convert(text)
                guard format == .text || format == .json || format == .markdown else {
                    throw UsageError("diff prints text, json or markdown; '\(format.rawValue)' is for reports (use it with promote)")
                }
                return format
            }
            return o
        }()
        static let specs = [exitCodeFlag.spec, formatOption.spec, CommonOptions.config.spec] + SchemaPairOptions.specs

        var exitCode: Bool
        var format: OutputFormat
        var configPath: String?
        var schemas: SchemaPairOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            format = try arguments.value(Self.formatOption)
            schemas = try SchemaPairOptions(arguments)
            configPath = try arguments.value(CommonOptions.config)
            exitCode = arguments.flag(Self.exitCodeFlag)
        }
    }
}
