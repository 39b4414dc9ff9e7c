import CKSchema

/// `ckschema records delete RECORDNAME...`: records of one zone deleted in one transaction.
enum RecordsDelete: Subcommand {
    static let name = "delete"
    static let summary = "delete the named records of one zone (--zone) in one transaction"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options, env = o.target.environment
        let result = try RecordDeleter.delete(names: o.names, zone: o.zone, from: try o.target.store(o.storePath), environment: env)
        io.report(result.diagnostics, format: o.format, command: "records delete")
        if o.format == .text { io.write("deleted \(result.deleted) record\(result.deleted == 1 ? "" : "s") from \(env.rawValue)\n") }
        return result.diagnostics.isEmpty ? .success : .findings
    }
}
