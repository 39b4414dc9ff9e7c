import CKSchema
import Foundation

/// `ckschema export [SCHEMA] --format ckdb|yaml|jsonschema [-o FILE]`: the schema in another language.
enum ExportCommand: OptionsCommand {
    static let name = "export"
    static let summary = "Write the schema as .ckdb (cktool import-schema), canonical YAML, or JSON Schema for records."
    static let help = """
        SCHEMA is a YAML file, a folder of YAML files, a .ckdb file or a Core Data model
        (.xcdatamodeld, .xcdatamodel); without one, the
        development schema named in ckschema.yaml (for jsonschema: the production one, else
        the development one).

        formats:
          ckdb         (default) what 'xcrun cktool export-schema' writes: the complete
                       schema, Users included, because 'cktool import-schema' replaces the
                       whole development schema. What the language cannot say (zones,
                       queries, deprecation, reference targets, descriptions, indexes on
                       encrypted fields) is left out with a warning on standard error;
                       see docs/ckdb.md
          yaml         the canonical YAML form ('ckschema fmt')
          jsonschema   a JSON Schema (draft 2020-12) with one definition per record type,
                       accepting one record as 'ckschema validate --env production' does;
                       docs/records.md says what it cannot express

        exit codes: 0 written; 1 written, with warnings at --fail-on; 2 not written (a name
        that cannot be written in .ckdb, or an unreadable schema).

        example:
          ckschema export --format ckdb -o schema.ckdb
          xcrun cktool import-schema --team-id T --container-id iCloud.com.example.App \\
              --environment development --file schema.ckdb
          ckschema export --format jsonschema Schemas/production.yaml -o records.schema.json
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let language = options.language
        let config = try CommonOptions.configuration(options.configPath)
        let failOn = options.failOn ?? config?.failOn ?? .error
        let path: String
        if let p = options.path {
            path = p
        } else if language == .jsonschema, let p = config?.productionSchema ?? config?.developmentSchema {
            path = p
        } else {
            path = try SchemaArguments.development(nil, config: config)
        }
        let schema = try SchemaSource.load(path: path, model: options.model.selection(config))

        let text: String
        var diagnostics: [Diagnostic] = []
        switch language {
        case .yaml: text = schema.canonicalYAML
        case .jsonschema: text = JSONSchemaExporter.export(schema)
        case .ckdb: (text, diagnostics) = CKDBExporter.export(schema)
        }
        if diagnostics.contains(atLeast: .error) {
            // A file cktool cannot read back is not written at all.
            throw InputError(diagnostics)
        }
        try io.write(text, to: options.output)
        if !diagnostics.isEmpty {
            io.error(DiagnosticRenderer(format: .text, command: name, rules: RuleCatalog.info).render(diagnostics))
        }
        return Output.exitCode(for: diagnostics, failOn: failOn)
    }
}
