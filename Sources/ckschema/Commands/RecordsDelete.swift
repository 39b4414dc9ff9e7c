import CKSchema

/// `ckschema records delete RECORDNAME...`: records of one zone deleted in one transaction.
enum RecordsDelete: Subcommand {
    static let name = "delete"
    static let arguments: [Positional] = [.many("RECORDNAME")]
    static let summary = "delete the named records of one zone (--zone) in one transaction"
    static let accepts: Set<String>? = ["config", "format", "env", "store", "zone"]

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options.records
        let result = try RecordDeleter.delete(names: o.arguments, zone: o.zone, from: try o.store(), environment: o.environment)
        io.report(result.diagnostics, format: o.format, command: "records delete")
        if o.format == .text { io.write("deleted \(result.deleted) record\(result.deleted == 1 ? "" : "s") from \(o.environment.rawValue)\n") }
        return result.diagnostics.isEmpty ? .success : .findings
    }

    struct Options: ArgumentsDecodable {
        var records: RecordsCommand.Options
        init(_ arguments: ParsedArguments) throws(UsageError) {
            records = try RecordsCommand.Options(arguments).requiring({ !$0.isEmpty }, "records delete needs at least one RECORDNAME")
        }
    }
}
