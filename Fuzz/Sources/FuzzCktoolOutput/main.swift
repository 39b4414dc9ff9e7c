import Foundation
import FuzzDriver
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// A schema with fields on several lines, exported as push exports it: the map's source.
let schema = Schema(recordTypes: [RecordType(name: "Note", fields: [
    Field(name: "title", type: FieldType(.string), origin: Origin(file: "dev.yaml", line: 14, column: 7)),
    Field(name: "body", type: FieldType(.bytes), origin: Origin(file: "dev.yaml", line: 15, column: 7)),
], origin: Origin(file: "dev.yaml", line: 8, column: 3))])
let map = ExportLineMap(source: schema, exportText: CKDBExporter.export(schema).text)
let session = CKToolSession(team: "T", container: "iCloud.com.example.App", tool: .executable("/bin/false"), token: "ckmt-TOKEN-77")

/// cktool's output, untrusted (`push`, `reset`, `verify`): the line and column it names, the
/// refusal located through the export, and the failure message. No input may trap, and no
/// message may carry a control character or the token.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCktoolOutput(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let (line, column) = ExportLineMap.position(in: text) {
        precondition(line >= 0 && column >= 1)
        _ = map.location(line: line, column: column)
    }
    for status: Int32 in [0, 1] {
        let outcome = CKToolOutcome(status: status, output: session.redacted(text))
        var messages: [String] = []
        do {
            if let d = try SchemaPusher.refusal("validate-schema", outcome, session: session, map: map) { messages.append(d.message) }
        } catch { messages += error.diagnostics.map(\.message) }
        messages += session.failure("import-schema", outcome).diagnostics.map(\.message)
        for m in messages {
            precondition(!m.unicodeScalars.contains(where: ControlCharacters.needsEscape), "a control character reached a message: \(m.debugDescription)")
            precondition(!m.contains("ckmt-TOKEN-77"), "the token reached a message")
        }
    }
    return 0
}

runFuzzer(fuzzCktoolOutput)
