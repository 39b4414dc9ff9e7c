import CKSchema

extension JSONSchemaCommand {
    /// json-schema's options: where to write.
    struct Options: ParsableOptions {
        @Opt(.path("output", short: "o", help: "write it to FILE instead of standard output", valueName: "FILE")) var output: String?
        @Positionals() var words: [String]

        func validate() throws(UsageError) {
            if !words.isEmpty { throw UsageError("json-schema takes no positional arguments; name the file with -o") }
        }
    }
}
