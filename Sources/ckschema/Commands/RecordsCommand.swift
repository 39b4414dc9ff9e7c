import CKSchema
import Foundation

/// `ckschema records import|export`: records in and out of the local store.
enum RecordsCommand: Command {
    static let name = "records"
    static let summary = "Import NDJSON records into the local store, or export them."
    static let usage = "ckschema records import --env ENV [--save-policy ifServerRecordUnchanged|changedKeys|allKeys] FILE... | export --env ENV [--type T] [-o FILE]"
    static let options: [OptionSpec] = CommonOptions.report + [
        OptionSpec(name: "env", short: nil, takesValue: true),
        OptionSpec(name: "save-policy", short: nil, takesValue: true),
        OptionSpec(name: "store", short: nil, takesValue: true),
        OptionSpec(name: "type", short: nil, takesValue: true),
        OptionSpec(name: "output", short: "o", takesValue: true),
    ]
    static let help = """
        import reads records in the CloudKit Web Services shape, one JSON object a line:
          {"recordName": "n1", "recordType": "Note", "zoneID": {"zoneName": "Notes"},
           "recordChangeTag": "...", "fields": {"title": {"value": "Hi", "type": "STRING"}}}
        ('-' reads standard input, always as NDJSON; a line may hold at most 16 MB, as in validate),
        checks each with the validate command's rules (CK4xx) and saves them as CloudKit does: batches of at most 400, all or nothing per batch in a
        zone with the atomic capability, a stale change tag is a conflict. Production refuses
        unknown fields; development adds them to its schema (just-in-time schema). The whole
        import is one transaction. Exit 1 when any record failed (they are listed).

        export writes the environment's records back as NDJSON in the same shape.

        options:
          --env development|production   the store environment (default: development)
          --save-policy POLICY           ifServerRecordUnchanged (default), changedKeys, allKeys
          --store PATH                   the store (default: ckschema.yaml's store)
          --type T                       export only records of this type
          -o, --output FILE              export to FILE instead of stdout
        \(CommonOptions.reportHelp)

        examples:
          ckschema records import --env production fixtures/notes.ndjson
          ckschema records export --env development -o notes.ndjson
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard let sub = args.positionals.first else { throw UsageError("records needs a subcommand: import or export") }
        let config = try CommonOptions.configuration(args)
        let storePath = args.value("store") ?? config?.store ?? ".ckschema/store.sqlite"
        let env = try MigrateCommand.environment(args)
        let files = Array(args.positionals.dropFirst())
        switch sub {
        case "import":
            guard !files.isEmpty else { throw UsageError("records import needs at least one FILE") }
            var policy = RecordImporter.SavePolicy.ifServerRecordUnchanged
            if let p = args.value("save-policy") {
                guard let v = RecordImporter.SavePolicy(rawValue: p) else {
                    throw UsageError("'\(p)' is not a save policy\(Suggest.phrase(for: p, in: RecordImporter.SavePolicy.allCases.map(\.rawValue))); use ifServerRecordUnchanged, changedKeys or allKeys")
                }
                policy = v
            }
            let store = try Store(path: storePath)
            let result = try RecordImporter.importFiles(files, into: store, options: .init(environment: env, savePolicy: policy))
            let format = try CommonOptions.outputFormat(args)
            io.report(result.diagnostics, format: format, command: "records import")
            if format == .text {
                io.write("saved \(result.saved) record\(result.saved == 1 ? "" : "s") to \(env.rawValue) in \(result.batches) batch\(result.batches == 1 ? "" : "es")"
                         + (result.failed > 0 ? "; \(result.failed) failed" : "") + "\n")
            }
            return result.failed > 0 ? .findings : .success
        case "export":
            guard files.isEmpty else { throw UsageError("records export takes no FILE; use -o FILE") }
            let store = try Store(path: storePath, access: .read)
            let handle: FileHandle
            if let o = args.value("output") {
                guard FileManager.default.createFile(atPath: o, contents: nil), let h = FileHandle(forWritingAtPath: o) else {
                    throw InputError(.error(InputRules.unreadable.code, "cannot write '\(o)'", at: nil))
                }
                handle = h
            } else { handle = io.out }
            try RecordExporter.export(from: store, environment: env, recordType: args.value("type")) { handle.write($0) }
            return .success
        default:
            throw UsageError("unknown records subcommand '\(sub)'\(Suggest.phrase(for: sub, in: ["import", "export"]))")
        }
    }
}
