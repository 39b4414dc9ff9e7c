import CKSchema

/// `ckschema records import FILE...`: records checked and saved as CloudKit saves them.
enum RecordsImport: Subcommand {
    static let name = "import"
    static let summary = "check NDJSON records and save them to the store, in batches as CloudKit does"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options, env = o.target.environment
        let result = try RecordImporter.importFiles(o.files, into: try o.target.store(o.storePath), options: .init(environment: env, savePolicy: o.savePolicy))
        io.report(result.diagnostics, format: o.format, command: "records import")
        if o.format == .text {
            io.write("saved \(result.saved) record\(result.saved == 1 ? "" : "s") to \(env.rawValue) in \(result.batches) batch\(result.batches == 1 ? "" : "es")"
                     + (result.failed > 0 ? "; \(result.failed) failed" : "") + "\n")
        }
        return result.failed > 0 ? .findings : .success
    }
}
