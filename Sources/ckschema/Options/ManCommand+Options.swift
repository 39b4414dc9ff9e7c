import CKSchema

extension ManCommand {
    /// man takes nothing.
    struct Options: ParsableOptions {
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("man takes no arguments") }
        }
    }
}
