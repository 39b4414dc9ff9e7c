import CKSchema

extension ImportCommand {
    /// import's options: the one file to read, where to write, and the Core Data model.
    struct Options: ParsableOptions {
        static let outputOption = Option.path("output", short: "o", help: "write the YAML to FILE instead of standard output", valueName: "FILE")
        static let forceFlag = Flag("force", help: "replace FILE.yaml wholesale instead of merging into it")
        static let specs = [outputOption.spec, forceFlag.spec] + ModelOptions.specs
        var path: String
        var output: String?
        var force: Bool
        var model: ModelOptions

        init(_ arguments: ParsedArguments) throws(UsageError) {
            guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
                throw UsageError(arguments.positionals.isEmpty ? "no .ckdb file given" : "give exactly one .ckdb file")
            }
            self.path = path
            output = try arguments.value(Self.outputOption)
            force = arguments.flag(Self.forceFlag)
            model = try ModelOptions(arguments)
        }
    }
}
