import CKSchema

extension FmtCommand {
    /// fmt's options: --check or --write (not both), and the files.
    struct Options: ParsableOptions {
        static let checkFlag = Flag("check", help: "exit 1 and name each file that is not formatted; change nothing")
        static let writeFlag = Flag("write", short: "w", help: "rewrite the files in place")
        static let specs = [checkFlag.spec, writeFlag.spec, CommonOptions.format.spec, CommonOptions.config.spec]
        var check, write: Bool
        var format: OutputFormat
        var configPath: String?
        var sources: [String]

        init(_ arguments: ParsedArguments) throws(UsageError) {
            check = arguments.flag(Self.checkFlag)
            write = arguments.flag(Self.writeFlag)
            if check && write { throw UsageError("--check and --write cannot be used together") }
            format = try arguments.value(CommonOptions.format)
            configPath = try arguments.value(CommonOptions.config)
            sources = arguments.positionals
        }
    }
}
