import CKSchema

/// `ckschema lint [SCHEMA...]`: the lint rules over one or more schema sources.
enum LintCommand: OptionsCommand {
    static let name = "lint"
    static let summary = "Check a schema against CloudKit's rules (names, indexes, encryption, queries, zones)."
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

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try options.report.configuration()
        let paths = options.paths.isEmpty ? [try SchemaArguments.development(nil, config: config)] : options.paths
        let linter = Linter(configuration: config?.lint ?? RuleSettings())
        var diagnostics: [Diagnostic] = []
        for path in paths {
            let schema = try SchemaSource.load(path: path, model: options.model.selection(config))
            diagnostics += linter.lint(schema)
            // Freed field by field, a 2,000-type schema cost lint 14 M instructions (2.5%).
            KeptUntilExit.keep(schema)
        }
        let code = Output.exitCode(for: diagnostics, failOn: options.report.failOn(config))
        io.conclude(diagnostics, format: options.report.format, command: name, failed: code != .success)
        return code
    }
}
