import CKSchema

/// `ckschema diff [FROM] [TO]`: production -> development, change by change.
enum DiffCommand: Command {
    static let name = "diff"
    static let summary = "Show what changed between two schemas (production -> development), grouped by record type."
    static let usage = "ckschema diff [FROM] [TO] [--format text|json|markdown] [--exit-code] [--config PATH]"
    static let options = [
        OptionSpec(name: "exit-code", short: nil, takesValue: false, help: "exit 1 when the schemas differ, 0 when they do not"),
        OptionSpec(name: "format", short: nil, takesValue: true, help: "output format (json: docs/output.md)",
                   values: ["text", "json", "markdown"], defaultValue: "text"),
        CommonOptions.config,
    ] + CommonOptions.model
    static let help = """
        FROM and TO are schema sources (a YAML file, a folder of YAML files, a .ckdb file, a
        Core Data model; two versions of one model are its .xcdatamodel folders).
        Without them, FROM is the production schema and TO the development schema named in
        ckschema.yaml; with one, it is FROM and TO is the development schema.

        Lines read '+' added, '-' removed, '~' changed:
          + Payload.title string [queryable, searchable]
          - index Payload.capturedAt sortable
          ~ Payload.count type: int64 -> string

        example:
          ckschema diff
          ckschema diff prod.ckdb Schemas/development.yaml --format json
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        let format = try CommonOptions.outputFormat(args)
        guard format == .text || format == .json || format == .markdown else { throw UsageError("diff prints text, json or markdown; '\(format.rawValue)' is for reports (use it with promote)") }
        let (from, to) = try PromoteCommand.schemas(args)
        let diff = SchemaDiff.compute(from: from, to: to)
        switch format {
        case .json: io.write(String(decoding: diff.jsonData, as: UTF8.self))
        case .markdown: io.write(diff.markdown)
        default: io.write(diff.text)
        }
        let exitCode = args.flag("exit-code")
        if exitCode, format == .text {
            // One closing line, also when the schemas are the same, so a CI log shows what ran.
            let n = diff.changes.count
            io.write("ckschema diff: " + (n == 0 ? "no differences" : "\(n) change\(n == 1 ? "" : "s")") + "\n")
        }
        return exitCode && !diff.isEmpty ? .findings : .success
    }
}
