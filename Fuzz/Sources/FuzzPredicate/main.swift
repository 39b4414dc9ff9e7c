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

/// The predicate parser (`query --predicate`, subscriptions, declared queries): a predicate
/// or a located CK7xx, never a crash; what parses is checked against a record type and turned
/// into the store's SQL, which must stay within SQLite's limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let predicate = try? PredicateParser.parse(text) else { return 0 }
    var type = RecordType(name: "Note")
    type.fields = [
        Field(name: "title", type: FieldType(.string), indexes: [.queryable, .searchable, .sortable]),
        Field(name: "mood", type: FieldType(.int64), indexes: [.queryable, .sortable]),
        Field(name: "tags", type: FieldType(.string, isList: true), indexes: [.queryable]),
        Field(name: "place", type: FieldType(.location), indexes: [.queryable]),
    ]
    _ = PredicateChecker.check(predicate, on: type, needIndexes: true)
    if let c = StoreQuery.condition(predicate, type: type, env: .development, searchTables: ["title": "fts:title"]) {
        precondition(c.bindings.count <= 32_766, "more bound values than SQLite takes")
    }
    return 0
}

runFuzzer(fuzzPredicate)
