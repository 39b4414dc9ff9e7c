import CKSchema
import Foundation

/// `ckschema records export [-o FILE]`: an environment's records as NDJSON.
enum RecordsExport: Subcommand {
    static let name = "export"
    static let summary = "write the environment's records back as NDJSON in the same shape"

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let o = options
        let store = try o.target.store(o.storePath, access: .read)
        let handle: FileHandle
        if let path = o.outputPath {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot write '\(path)'", at: nil, fix: "check that the folder exists and is writable"))
            }
            handle = h
        } else { handle = io.out }
        try RecordExporter.export(from: store, environment: o.target.environment, recordType: o.recordType) { handle.write($0) }
        return .success
    }
}
