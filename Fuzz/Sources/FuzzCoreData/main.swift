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

/// The Core Data model reader (ModelXMLReader and the mapping to CloudKit): every input is
/// a model or a located CK6xx, never a crash, and reading it again gives the same model.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoreData(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    guard let model = try? CoreDataReader.parse(data, file: "contents", versionName: "Fuzz") else { return 0 }
    guard let again = try? CoreDataReader.parse(data, file: "contents", versionName: "Fuzz"),
          again.entities.map(\.name) == model.entities.map(\.name) else {
        fatalError("reading the same contents twice gave another model")
    }
    _ = try? CoreDataMapping.schema(for: model, configuration: nil)
    return 0
}

runFuzzer(fuzzCoreData)
