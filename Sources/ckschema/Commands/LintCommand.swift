import CKSchema

/// `ckschema lint [SCHEMA...]`: the lint rules over one or more schema sources.
enum LintCommand: Command {
    static let name = "lint"
    static let summary = "Check a schema against CloudKit's rules (names, indexes, encryption, queries, zones)."
    static let usage = "ckschema lint [SCHEMA...] [--format text|json|github|sarif|markdown] [--fail-on warning|error]"
    static let options = CommonOptions.report + CommonOptions.model
    static let help = """
        SCHEMA is a YAML file, a folder of YAML files, a .ckdb file, or a Core Data model
        (.xcdatamodeld, .xcdatamodel: its CloudKit mirror, and CK610-CK617); without one,
        the development schema named in ckschema.yaml. Rules and their codes: docs/rules.md.
        A rule is switched off on a line by '# ckschema-disable CK110: reason', or for the
        repository in ckschema.yaml (lint.disable, lint.severity). CK101 (invalid name) cannot
        be switched off, by a comment or in ckschema.yaml: such a name would reach the store's SQL.

        example:
          ckschema lint Schemas/development.yaml --format github
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        let format = try CommonOptions.outputFormat(args)
        let config = try CommonOptions.configuration(args)
        let failOn = try CommonOptions.failOn(args, config: config)
        let paths = args.positionals.isEmpty ? [try SchemaArguments.development(nil, config: config)] : args.positionals
        var diagnostics: [Diagnostic] = []
        let model = CommonOptions.modelSelection(args, config: config)
        for path in paths { diagnostics += try lint(path: path, config: config, model: model) }
        let code = Output.exitCode(for: diagnostics, failOn: failOn)
        io.conclude(diagnostics, format: format, command: name, failed: code != .success)
        return code
    }

    /// Loads and lints one schema source with the repository's lint configuration.
    static func lint(path: String, config: Configuration?, model: ModelSelection = ModelSelection()) throws(InputError) -> [Diagnostic] {
        let schema = try SchemaSource.load(path: path, model: model)
        return Linter(configuration: config?.lint ?? LintConfiguration()).lint(schema)
    }
}
