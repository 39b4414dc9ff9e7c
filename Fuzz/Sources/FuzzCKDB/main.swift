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

/// The CloudKit Schema Language parser; what parses is exported back to `.ckdb` and to YAML,
/// and the export must parse again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCKDB(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    guard let schema = try? CKDBSource.parse(data, file: "fuzz.ckdb") else { return 0 }
    let (text, _) = CKDBExporter.export(schema)
    do { _ = try CKDBSource.parse(Data(text.utf8), file: "export.ckdb") } catch {
        fatalError("the .ckdb export of a parsed schema does not parse: \(error)\n\(text)")
    }
    _ = SchemaEmitter.emit(schema)
    return 0
}

runFuzzer(fuzzCKDB)
