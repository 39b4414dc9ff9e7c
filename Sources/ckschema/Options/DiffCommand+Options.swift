import CKSchema

extension DiffCommand {
    /// diff's options: the output format (text, json or markdown), the exit code, FROM and TO.
    struct Options: ParsableOptions {
        @Opt(Flag("exit-code", help: "exit 1 when the schemas differ, 0 when they do not")) var exitCode: Bool
        @Opt(Options.formatOption) var format: OutputFormat
        @Opt(CommonOptions.config) var configPath: String?
        @Group var schemas: SchemaPairOptions

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
    }
}
