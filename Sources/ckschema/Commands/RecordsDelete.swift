import CKSchema

/// `ckschema records delete RECORDNAME...`: records of one zone deleted in one transaction.
enum RecordsDelete: Subcommand {
    static let name = "delete"
    static let summary = "delete the named records of one zone (--zone) in one transaction"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options, env = o.target.environment
        let result = try RecordDeleter.delete(names: o.names, zone: o.zone, from: try o.target.store(o.storePath), environment: env, dryRun: o.dryRun)
        io.report(result.diagnostics, format: o.format, command: "records delete")
        if o.format == .text {
            let verb = o.dryRun ? "would delete" : "deleted"
            let cascaded = Set(result.cascaded.map(\.name))
            if o.dryRun {
                for name in result.names where !cascaded.contains(name) {
                    io.write("would delete \(JSONValue.string(name).text)\n")
                }
            }
            // Each record a deleteSelf reference took with it (CKRecord.Reference.Action.deleteSelf).
            for c in result.cascaded {
                io.write("\(verb) \(JSONValue.string(c.name).text): its reference to \(JSONValue.string(c.target).text) has the deleteSelf action\n")
            }
            io.write("\(verb) \(result.deleted) record\(result.deleted == 1 ? "" : "s") from \(env.rawValue)\(o.dryRun ? " (--dry-run: nothing was deleted)" : "")\n")
        }
        return result.diagnostics.isEmpty ? .success : .findings
    }
}
