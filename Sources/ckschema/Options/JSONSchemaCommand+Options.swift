import CKSchema

extension JSONSchemaCommand {
    /// json-schema's options: where to write.
    struct Options: ParsableOptions {
        static let outputOption = Option.path("output", short: "o", help: "write it to FILE instead of standard output", valueName: "FILE")
        static let specs = [outputOption.spec]
        var output: String?

        init(_ arguments: ParsedArguments) throws(UsageError) {
            if !arguments.positionals.isEmpty { throw UsageError("json-schema takes no positional arguments; name the file with -o") }
            output = try arguments.value(Self.outputOption)
        }
    }
}
