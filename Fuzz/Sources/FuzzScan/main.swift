import Foundation
import FuzzDriver
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaConfig
@testable import CKSchemaScan

/// The schema the scanned code is checked against: zones, an encrypted field, indexes.
let schema: Schema = {
    let yaml = """
        ckschema: 1
        zones:
          Journal: { capabilities: [fetchChanges] }
        recordTypes:
          Entry:
            zone: Journal
            fields:
              title: { type: string, indexes: [queryable, sortable] }
              body: { type: string, encrypted: true }
          Note:
            fields:
              rank: { type: int64, indexes: [queryable, sortable] }
        """
    let path = NSTemporaryDirectory() + "/fuzzscan-\(getpid()).yaml"
    FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try! SchemaSource.load(path: path)
}()

/// `ckschema scan` over one Swift file (split at a line `// FILE` into two, so that the
/// cross-file constants are fuzzed too): it never traps or hangs, every finding has a place,
/// and no control character of the code reaches a message raw.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScan(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    var parts = [data]
    if let r = data.range(of: Data("\n// FILE\n".utf8)) { parts = [data[..<r.lowerBound], data[r.upperBound...]].map { Data($0) } }
    let result = CodeScan.run(sources: parts.enumerated().map { ("f\($0.offset).swift", $0.element) }, schema: schema)
    for d in result.diagnostics + result.notes {
        precondition(d.location != nil, "a scan finding without a place: \(d.message)")
        precondition(!d.message.unicodeScalars.contains { $0.value == 0x1B }, "an escape reached a message raw: \(d.message)")
    }
    _ = result.surface.json(subscriptions: result.subscriptions, diagnostics: result.diagnostics).rendered()
    return 0
}

runFuzzer(fuzzScan)
