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

/// The migration file loader, then each step applied to a schema as `migrate apply` applies
/// it, and the SQL of each data step built (names are checked before they become SQL).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMigration(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: UnsafeRawPointer(start), count: count)
    guard let m = try? Migration.parse(data, path: "0001_fuzz.yaml") else { return 0 }
    var schema = Schema()
    for step in m.steps {
        do {
            try SchemaChanger.apply(step, to: &schema, file: m.path, adoptingFields: true)
            if let update = try Migrator.dataStepUpdate(step, schema: schema) {
                // One statement, and no name outside CloudKit's grammar in it.
                for (sql, _) in [update.updateSQL(env: .development, changeTag: "t", now: 0), update.countSQL(env: .development)] {
                    precondition(!sql.contains(";"), "a data step's SQL holds a second statement: \(sql)")
                }
            }
        } catch { break }
    }
    for t in schema.recordTypes {
        precondition(StoreName.isSafe(t.name), "an unsafe record type name passed the loader: \(t.name)")
        for f in t.fields { precondition(StoreName.isSafe(f.name), "an unsafe field name passed the loader: \(f.name)") }
    }
    return 0
}

runFuzzer(fuzzMigration)
