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

/// `fmt`'s round trip: whatever parses is formatted, and the formatted text must parse to the
/// same model and format to itself (issue #11, defect 7: U+2028 written raw broke the file).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFmt(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    guard let file = try? SchemaSource.parseYAML(data, file: "fuzz.yaml") else { return 0 }
    let once = SchemaFormatter.format(file)
    let again: SchemaFile
    do { again = try SchemaSource.parseYAML(Data(once.utf8), file: "fuzz.yaml") } catch {
        fatalError("fmt output does not parse: \(error)\n--- output:\n\(once)")
    }
    precondition(again.schema == file.schema, "fmt output parses to another model\n--- output:\n\(once)")
    precondition(SchemaFormatter.format(again) == once, "fmt is not idempotent\n--- output:\n\(once)")
    return 0
}

runFuzzer(fuzzFmt)
