import CKSchema

/// `ckschema json-schema [-o FILE]`: the JSON Schema of the YAML format, for editors.
enum JSONSchemaCommand: OptionsCommand {
    static let name = "json-schema"
    static let summary = "Print the JSON Schema (2020-12) of the YAML schema format and ckschema.yaml, for editors."
    static let help = """
        Every key, field type, index kind, capability and permission, with its description;
        unknown keys and misspelled types are invalid. 'ckschema init' writes it beside the
        schemas and starts each YAML file it creates with the line
          # yaml-language-server: $schema=ckschema.schema.json
        which VS Code's YAML extension (and other yaml-language-server editors) follow.

        example:
          ckschema json-schema -o Schemas/ckschema.schema.json
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let text = FormatJSONSchema.render()
        guard let path = options.output else { io.write(text); return .success }
        try InputFile.write(text, to: path)
        return .success
    }
}
