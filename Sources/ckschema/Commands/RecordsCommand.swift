import CKSchema
import Foundation

/// `ckschema records import|export`: records in and out of the local store.
enum RecordsCommand: Command {
    static let name = "records"
    static let summary = "Import NDJSON records into the local store, export them, or delete them."
    static let usage = "ckschema records import [--env development|production] [--save-policy ifServerRecordUnchanged|changedKeys|allKeys] FILE... | export [--env development|production] [--type T] [-o FILE] | delete [--env development|production] [--zone Z] RECORDNAME..."
    static let options: [OptionSpec] = CommonOptions.report + [
        OptionSpec(name: "env", short: nil, takesValue: true, help: "the store environment",
                   values: ["development", "production"], defaultValue: "development"),
        OptionSpec(name: "save-policy", short: nil, takesValue: true, help: "how a record that exists is saved",
                   values: ["ifServerRecordUnchanged", "changedKeys", "allKeys"], defaultValue: "ifServerRecordUnchanged"),
        OptionSpec(name: "store", short: nil, takesValue: true, help: "the store",
                   valueName: "PATH", defaultValue: "ckschema.yaml's store", isPath: true),
        OptionSpec(name: "type", short: nil, takesValue: true, help: "export only records of this type", valueName: "T"),
        OptionSpec(name: "output", short: "o", takesValue: true, help: "export to FILE instead of standard output",
                   valueName: "FILE", isPath: true),
        OptionSpec(name: "zone", short: nil, takesValue: true, help: "delete: the zone of the records", valueName: "Z", defaultValue: "_defaultZone"),
    ]
    static let subcommands = ["import", "export"]
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

        delete deletes the named records of one zone (--zone, default _defaultZone) in one
        transaction; a name that is not found is reported (CK740, exit 1). Saves and deletes both
        record the notifications of the environment's subscriptions (ckschema notifications).

        examples:
          ckschema records import --env production fixtures/notes.ndjson
          ckschema records export --env development -o notes.ndjson
        """

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        guard let sub = args.positionals.first else { throw UsageError("records needs a subcommand: import or export") }
        let config = try CommonOptions.configuration(args)
        let storePath = args.value("store") ?? config?.store ?? Configuration.defaultStore
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
                    throw InputError(.error(InputRules.unwritable.code, "cannot write '\(o)'", at: nil, fix: "check that the folder exists and is writable"))
                }
                handle = h
            } else { handle = io.out }
            try RecordExporter.export(from: store, environment: env, recordType: args.value("type")) { handle.write($0) }
            return .success
        case "delete":
            guard !files.isEmpty else { throw UsageError("records delete needs at least one RECORDNAME") }
            let store = try Store(path: storePath)
            let result = try RecordDeleter.delete(names: files, zone: args.value("zone") ?? "_defaultZone", from: store, environment: env)
            let format = try CommonOptions.outputFormat(args)
            io.report(result.diagnostics, format: format, command: "records delete")
            if format == .text { io.write("deleted \(result.deleted) record\(result.deleted == 1 ? "" : "s") from \(env.rawValue)\n") }
            return result.diagnostics.isEmpty ? .success : .findings
        default:
            throw UsageError("unknown records subcommand '\(sub)'\(Suggest.phrase(for: sub, in: ["import", "export", "delete"]))")
        }
    }
}
