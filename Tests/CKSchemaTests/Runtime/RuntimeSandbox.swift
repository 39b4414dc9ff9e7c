import Foundation
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

/// A temporary store holding `Tests/Fixtures/runtime/schema.yaml` in both environments, with
/// `notes.ndjson` imported into development: the ground for `query`, `changes` and `notifications`.
struct RuntimeSandbox {
    let root: String
    var storePath: String { root + "/store.sqlite" }
    let store: Store

    init(importRecords: Bool = true) throws {
        root = try makeTempDir("ckschema-runtime")
        store = try Store(path: root + "/store.sqlite")
        let schema = try SchemaSource.load(path: Paths.fixture("runtime/schema.yaml"))
        try store.db.transaction {
            for env in Environment.allCases { try store.writeSchema(schema, env: env) }
        }
        if importRecords {
            let r = try RecordImporter.importFiles([Paths.fixture("runtime/notes.ndjson")], into: store, options: .init())
            precondition(r.failed == 0, "\(r.diagnostics)")
        }
    }

    func cleanup() { try? FileManager.default.removeItem(atPath: root) }

    /// The record names a query returns, or its refusals' messages.
    func names(_ q: RecordQuery) throws -> Result<[String], QueryRefusal> {
        var lines: [String] = []
        switch try StoreQuery.run(q, store: store, sink: { lines.append($0) }) {
        case .refused(let d): return .failure(QueryRefusal(d))
        case .records:
            return .success(try lines.map { try JSONValue.parse($0)["recordName"]?.stringValue ?? "" })
        }
    }
}
