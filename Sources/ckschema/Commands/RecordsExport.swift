import CKSchema
import Foundation

/// `ckschema records export [-o FILE]`: an environment's records as NDJSON.
enum RecordsExport: Subcommand {
    static let name = "export"
    static let summary = "write the environment's records back as NDJSON in the same shape"
    static let accepts: Set<String>? = ["config", "env", "store", "type", "output"]

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options.records
        let store = try o.store(access: .read)
        let handle: FileHandle
        if let path = o.outputPath {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(path)'", at: nil, fix: "check that the folder exists and is writable"))
            }
            handle = h
        } else { handle = io.out }
        try RecordExporter.export(from: store, environment: o.environment, recordType: o.recordType) { handle.write($0) }
        return .success
    }

    struct Options: ArgumentsDecodable {
        var records: RecordsCommand.Options
        init(_ arguments: ParsedArguments) throws(UsageError) {
            records = try RecordsCommand.Options(arguments).requiring(\.isEmpty, "records export takes no FILE; use -o FILE")
        }
    }
}
