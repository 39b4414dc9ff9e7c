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

/// A temporary repository with a migrations folder and a store path, for store tests.
struct MigrationSandbox {
    let root: String
    var migrations: String { root + "/Migrations" }
    var store: String { root + "/.ckschema/store.sqlite" }

    /// A sandbox with the fixture history's first `count` migrations (and their sum file).
    init(fixtureCount count: Int = 5) throws {
        root = try makeTempDir("ckschema-store")
        try FileManager.default.createDirectory(atPath: root + "/Migrations", withIntermediateDirectories: true)
        let src = Paths.fixture("store/history")
        for name in try FileManager.default.contentsOfDirectory(atPath: src).sorted() {
            guard let (v, _) = Migration.parseFileName(name), v <= count else { continue }
            try FileManager.default.copyItem(atPath: src + "/" + name, toPath: root + "/Migrations/" + name)
        }
        try hash()
    }

    func write(_ name: String, _ text: String, hash rehash: Bool = true) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: migrations + "/" + name))
        if rehash { try hash() }
    }

    func hash() throws { try folder().writeSum() }

    func folder() throws -> MigrationFolder { try MigrationFolder.load(path: migrations) }

    func open() throws -> Store { try Store(path: store) }

    func cleanup() { try? FileManager.default.removeItem(atPath: root) }

    /// Inserts a record with raw fields JSON (tests of data steps; import has its own tests).
    static func insert(_ store: Store, env: Environment = .development, type: String, name: String, zone: String = "Notes", fields: String) throws {
        try store.db.run("INSERT INTO records (env, zone, record_type, record_name, change_tag, created_at, modified_at, fields) VALUES (?, ?, ?, ?, 't0', 0, 0, ?)",
                         [.text(env.rawValue), .text(zone), .text(type), .text(name), .text(fields)])
    }

    func fileBytes() -> Data { FileManager.default.contents(atPath: store) ?? Data() }
}
