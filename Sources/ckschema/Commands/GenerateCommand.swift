import CKSchema

/// `ckschema generate swift`: code generated from the schema.
enum GenerateCommand: CommandGroup {
    static let name = "generate"
    static let summary = "Generate typed Swift (records, keys, queries, zones, subscriptions) from the schema."
    static let subcommandTypes: [any Subcommand.Type] = [GenerateSwift.self]
    static let help = """
        SCHEMA is any schema source (a YAML file or folder, a .ckdb file, a Core Data model);
        without one, the development schema named in ckschema.yaml. DIR gets one file per
        record type and NAMESPACE.swift; it is replaced whole, and only when every file is
        ready (a folder holding other files is refused). The generated API and its naming
        rules: docs/codegen.md. The CKSchemaGenerate build-tool plugin runs this on every build.

        exit codes: 0 written; 1 written, with warnings at --fail-on (a declared query left
        out, CK953); 2 nothing written (a name collision, CK951; an undeclared zone, CK952;
        an unreadable schema).

        example:
          ckschema generate swift Schemas/development.yaml -o Sources/App/CloudSchema --access public
        """
}

/// `ckschema generate swift`.
enum GenerateSwift: Subcommand {
    static let name = "swift"
    static let summary = "write Swift for the schema into DIR"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let g = options
        let config = try g.report.configuration()
        let path = try SchemaArguments.development(g.path, config: config)
        let schema = try SchemaSource.load(path: path, model: g.model.selection(config))
        let options = SwiftGenerator.Options(namespace: g.namespace, isPublic: g.access == .public, source: path)
        let (count, outcome, diagnostics) = try SwiftGenerator.writeFolder(schema, options: options, to: g.output, singleFile: g.singleFile)
        if g.report.format == .text {
            // The warnings go where a build log shows them; standard output says what was written.
            if !diagnostics.isEmpty {
                io.error(DiagnosticRenderer(format: .text, command: GenerateCommand.name, rules: RuleCatalog.info).render(diagnostics))
            }
            let files = "\(count) file\(count == 1 ? "" : "s")"
            switch outcome {
            case .unchanged: io.write("generated \(files) in \(ControlCharacters.escaped(g.output)): unchanged, nothing rewritten\n")
            case .replaced(let rewritten) where rewritten < count:
                io.write("generated \(files) in \(ControlCharacters.escaped(g.output)): \(rewritten) rewritten, \(count - rewritten) unchanged\n")
            case .replaced: io.write("generated \(files) in \(ControlCharacters.escaped(g.output))\n")
            }
        } else {
            io.report(diagnostics, format: g.report.format, command: GenerateCommand.name)
        }
        return Output.exitCode(for: diagnostics, failOn: g.report.failOn(config))
    }
}
