import CKSchema

extension ImportCommand {
    /// import's options: the one file to read, where to write, and the Core Data model.
    struct Options: ParsableOptions {
        @Positionals(.one("FILE.ckdb|MODEL.xcdatamodeld|SOURCES")) var paths: [String]
        @Opt(.path("output", short: "o", help: "write the YAML to FILE instead of standard output", valueName: "FILE")) var output: String?
        @Opt(Flag("force", help: "replace FILE.yaml wholesale instead of merging into it")) var force: Bool
        @Group var model: ModelOptions

        /// The one file, which `validate()` has checked is given.
        var path: String { paths.first ?? "" }

        func validate() throws(UsageError) {
            guard paths.count == 1 else { throw UsageError(paths.isEmpty ? "no .ckdb file given" : "give exactly one .ckdb file") }
        }
    }
}
