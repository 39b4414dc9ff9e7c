import CKSchema

/// `ckschema diff [FROM] [TO]`: production -> development, change by change.
enum DiffCommand: OptionsCommand {
    static let name = "diff"
    static let summary = "Show what changed between two schemas (production -> development), grouped by record type."
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
          ckschema diff Schemas/production.yaml Schemas/development.yaml --format json
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let (from, to) = try options.schemas.load(config: try CommonOptions.configuration(options.configPath))
        let diff = SchemaDiff.compute(from: from, to: to)
        switch options.format {
        case .json: io.write(String(decoding: diff.jsonData, as: UTF8.self))
        case .markdown: io.write(diff.markdown)
        default:
            // An empty diff says so (issue 32 point 8), unless --exit-code writes its own line.
            io.write(diff.isEmpty && !options.exitCode ? "no changes\n" : diff.text)
        }
        if options.exitCode, options.format == .text {
            // One closing line, also when the schemas are the same, so a CI log shows what ran.
            let n = diff.changes.count
            io.write("ckschema diff: " + (n == 0 ? "no differences" : "\(n) change\(n == 1 ? "" : "s")") + "\n")
        }
        return options.exitCode && !diff.isEmpty ? .findings : .success
    }
}
