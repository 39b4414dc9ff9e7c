import CKSchema

extension FmtCommand {
    /// fmt's options: --check or --write (not both), and the files.
    struct Options: ParsableOptions {
        @Positionals(.any("FILE|FOLDER")) var sources: [String]
        @Opt(Flag("check", help: "exit 1 and name each file that is not formatted; change nothing")) var check: Bool
        @Opt(Flag("write", short: "w", help: "rewrite the files in place").excluding("check")) var write: Bool
        @Opt(CommonOptions.format) var format: OutputFormat
        @Opt(CommonOptions.config) var configPath: String?
    }
}
