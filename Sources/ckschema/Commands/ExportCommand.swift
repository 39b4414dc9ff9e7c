import CKSchema
import Foundation

/// `ckschema export --format jsonschema [SCHEMA]`: the schema in another tool's language.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "Write the schema in another language (jsonschema: JSON Schema 2020-12 for records)."
    static let usage = "ckschema export --format jsonschema [SCHEMA] [--output FILE]"
    static let options = [
        OptionSpec(name: "format", short: nil, takesValue: true),
        OptionSpec(name: "output", short: "o", takesValue: true),
        CommonOptions.config,
    ]
    static let help = """
        SCHEMA is a YAML file, a folder of YAML files, or a .ckdb file; without one, the
        production schema named in ckschema.yaml (else the development one).

        formats:
          jsonschema   a JSON Schema (draft 2020-12) with one definition per record type,
                       accepting one record as 'ckschema validate --env production' does;
                       docs/records.md says what it cannot express

        options:
          --format F        the output language (required)
          -o, --output FILE write to FILE instead of standard output
          --config PATH     use this ckschema.yaml

        example:
          ckschema export --format jsonschema Schemas/production.yaml -o records.schema.json
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard let format = args.value("format") else { throw UsageError("--format is required (jsonschema)") }
        let config = try CommonOptions.configuration(args)
        if args.positionals.count > 1 { throw UsageError("export takes one schema source") }
        let path: String
        if let p = args.positionals.first { path = p }
        else if let p = config?.productionSchema ?? config?.developmentSchema { path = p }
        else { throw UsageError("no schema given and no ckschema.yaml found; pass a schema path") }
        let schema = try SchemaSource.load(path: path)
        let text: String
        switch format {
        case "jsonschema": text = JSONSchemaExporter.export(schema)
        default: throw UsageError("'\(format)' is not an export format; use jsonschema")
        }
        if let out = args.value("output") {
            guard FileManager.default.createFile(atPath: out, contents: Data(text.utf8)) else {
                throw InputError(.error(InputRules.unreadable.code, "cannot write '\(out)'", at: nil))
            }
        } else {
            io.write(text)
        }
        return .success
    }
}
