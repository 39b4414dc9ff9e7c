import CKSchema

extension ManCommand {
    /// man takes nothing.
    struct Options: ParsableOptions {
        static let specs: [OptionSpec] = []
        init(_ arguments: ParsedArguments) throws(UsageError) {
            if !arguments.positionals.isEmpty { throw UsageError("man takes no arguments") }
        }
    }
}
