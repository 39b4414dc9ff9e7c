import CKSchema
import Foundation

/// `ckschema json-schema [-o FILE]`: the JSON Schema of the YAML format, for editors.
enum JSONSchemaCommand: Command {
    static let name = "json-schema"
    static let summary = "Print the JSON Schema (2020-12) of the YAML schema format and ckschema.yaml, for editors."
    static let usage = "ckschema json-schema [-o FILE]"
    static let options = [
        OptionSpec(name: "output", short: "o", takesValue: true, help: "write it to FILE instead of standard output",
                   valueName: "FILE", isPath: true),
    ]
    static let help = """
        Every key, field type, index kind, capability and permission, with its description;
        unknown keys and misspelled types are invalid. 'ckschema init' writes it beside the
        schemas and starts each YAML file it creates with the line
          # yaml-language-server: $schema=ckschema.schema.json
        which VS Code's YAML extension (and other yaml-language-server editors) follow.

        example:
          ckschema json-schema -o Schemas/ckschema.schema.json
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        if !args.positionals.isEmpty { throw UsageError("json-schema takes no positional arguments; name the file with -o") }
        let text = FormatJSONSchema.render()
        guard let path = args.value("output") else { io.write(text); return .success }
        try InputFile.write(text, to: path)
        return .success
    }
}
