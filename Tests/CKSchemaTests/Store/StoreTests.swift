import Foundation
import Testing
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

@Suite struct StoreTests {
    @Test func createsAStoreWithItsFormatVersionAndEmptyEnvironments() throws {
        let sb = try MigrationSandbox(fixtureCount: 0)
        defer { sb.cleanup() }
        let store = try sb.open()
        #expect(try store.db.scalar("SELECT value FROM meta WHERE key = 'format_version'")?.text == "\(Store.formatVersion)")
        #expect(try store.db.scalar("PRAGMA application_id")?.integer == Int64(Store.applicationID))
        for env in Environment.allCases {
            #expect(try store.schema(env) == Schema())
            #expect(try store.history(env).isEmpty)
            #expect(try store.schemaHash(env) == Schema().canonicalHash)
        }
        // Reopening an existing store works and changes nothing.
        let digest = try store.contentDigest()
        #expect(try Store(path: sb.store, access: .read).contentDigest() == digest)
    }

    @Test func refusesAStoreOfANewerFormat() throws {
        let sb = try MigrationSandbox(fixtureCount: 0)
        defer { sb.cleanup() }
        do {
            let store = try sb.open()
            try store.db.run("UPDATE meta SET value = '99' WHERE key = 'format_version'")
        }
        let before = sb.fileBytes()
        let error = try #require(throws: InputError.self) { try sb.open() }
        #expect(error.diagnostics.first?.code == "CK502")
        #expect(error.diagnostics.first?.message.contains("format version 99") == true)
        #expect(sb.fileBytes() == before)
    }

    @Test func refusesAFileThatIsNotSQLite() throws {
        let sb = try MigrationSandbox(fixtureCount: 0)
        defer { sb.cleanup() }
        try FileManager.default.createDirectory(atPath: sb.root + "/.ckschema", withIntermediateDirectories: true)
        try Data("name,value\nnot,a database\n".utf8).write(to: URL(fileURLWithPath: sb.store))
        let before = sb.fileBytes()
        let error = try #require(throws: InputError.self) { try sb.open() }
        #expect(error.diagnostics.first?.code == "CK501")
        #expect(error.diagnostics.first?.message.contains("is not an SQLite database") == true)
        #expect(sb.fileBytes() == before)
    }

    @Test func refusesAnotherToolsDatabase() throws {
        let sb = try MigrationSandbox(fixtureCount: 0)
        defer { sb.cleanup() }
        try FileManager.default.createDirectory(atPath: sb.root + "/.ckschema", withIntermediateDirectories: true)
        do {
            let other = try SQLiteConnection(path: sb.store, mode: .readWriteCreate)
            try other.executeTrustedScript("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO users VALUES (1, 'a@example.com')")
        }
        let before = sb.fileBytes()
        let error = try #require(throws: InputError.self) { try sb.open() }
        #expect(error.diagnostics.first?.code == "CK501")
        #expect(error.diagnostics.first?.message.contains("another tool") == true)
        #expect(sb.fileBytes() == before)
    }

    @Test func readingAMissingStoreDoesNotCreateIt() throws {
        let sb = try MigrationSandbox(fixtureCount: 0)
        defer { sb.cleanup() }
        let error = try #require(throws: InputError.self) { try Store(path: sb.store, access: .read) }
        #expect(error.diagnostics.first?.code == "CK501")
        #expect(!FileManager.default.fileExists(atPath: sb.store))
    }

    @Test func aReadOnlyConnectionCannotWriteAndSaysSo() throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        _ = try sb.open()
        let store = try Store(path: sb.store, access: .read)
        let before = try store.contentDigest()
        // Root ignores file modes, so the read-only case is driven through SQLite's read-only open.
        let error = try #require(throws: InputError.self) {
            try Migrator.apply(folder: try sb.folder(), store: store, options: .init(lockTimeout: 0))
        }
        #expect(error.diagnostics.first?.code == "CK503")
        #expect(try store.contentDigest() == before)
    }

    @Test func sqliteErrorsCarryCodeMessageAndSQL() throws {
        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT * FROM nowhere") }
        #expect(error.code == 1)
        #expect(error.message.contains("no such table: nowhere"))
        #expect(error.sql == "SELECT * FROM nowhere")
        #expect(error.description.contains("SQLite error 1"))
    }

    @Test func fts5IsAvailable() throws {
        let db = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        #expect(db.hasFTS5)
    }

    @Test func storeJSONRoundTripsRecordShapes() throws {
        let text = #"{"a":"x\"y\n\u00e9","b":[1,-2,3.5,true,null],"c":{"d":1e3}}"#
        let v = try JSONValue.parse(text)
        #expect(v["a"]?.stringValue == "x\"y\né")
        #expect(v["b"]?.arrayValue?.count == 5)
        #expect(v["c"]?["d"]?.doubleValue == 1000)
        #expect(try JSONValue.parse(v.text) == v)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(#"{"a":}"#) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(#"{"a":1} x"#) }
    }
}
