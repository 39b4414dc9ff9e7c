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

/// Issue #11, defect 1: no name from a schema or migration file reaches SQL unchecked.
@Suite struct SQLInjectionTests {
    /// Names that would have broken out of `'$.NAME'` or `"ix:...:NAME"` in the store's SQL.
    static let hostile = [
        "x'); DELETE FROM records; --",
        "a\"b",
        "title') IS NULL OR ('1'='1",
        "x' || (SELECT sql FROM sqlite_master) || '",
        "é",
        "a b",
        "",
        "1abc",
        ".x",
        "x.",
        String(repeating: "a", count: 256),
    ]

    /// A Trailmark-like project whose development schema holds a field named `name`,
    /// with a reasoned suppression of CK101 on its line.
    static func project(fieldName name: String) throws -> String {
        let dir = try makeTempDir("ckschema-injection")
        _ = try runCLI(["init", "--container", "iCloud.com.example.X"], cwd: dir)
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let yaml = """
        ckschema: 1
        container: iCloud.com.example.X
        zones:
          Notes: { database: private, capabilities: [fetchChanges, atomic] }
        recordTypes:
          Evil:
            zone: Notes
            fields:
              title: { type: string, indexes: [queryable] }
              "\(escaped)": { type: string, indexes: [queryable, searchable] } # ckschema-disable CK101: legacy name kept on purpose

        """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: dir + "/Schemas/development.yaml"))
        return dir
    }

    @Test func aSuppressionDoesNotSilenceCK101ThroughTheBinary() throws {
        let dir = try Self.project(fieldName: "x'); DELETE FROM records; --")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lint = try runCLI(["lint"], cwd: dir)
        #expect(lint.code == 1)
        #expect(lint.stdout.contains("Schemas/development.yaml:10:7: error: field name 'Evil.x'); DELETE FROM records; --' is not valid"))
        #expect(lint.stdout.contains("[CK101]"))
        // promote lints first: no plan is written, nothing reaches the store.
        let plan = try runCLI(["promote", "--plan", "plan.json"], cwd: dir)
        #expect(plan.code == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/plan.json"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/.ckschema/store.sqlite"))
    }

    @Test func ckschemaYAMLCannotDisableCK101() throws {
        let dir = try Self.project(fieldName: "x'); DELETE FROM records; --")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = try read(dir + "/ckschema.yaml").replacingOccurrences(of: "  failOn: error", with: "  failOn: error\n  disable: [CK101, CK102]")
        try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/ckschema.yaml"))
        let lint = try runCLI(["lint"], cwd: dir)
        #expect(lint.code == 1, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.contains("[CK101]"))
    }

    @Test func otherSuppressionsStillWork() throws {
        let dir = try Self.project(fieldName: "recordID")  // CK102, a style rule: suppressible
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try read(dir + "/Schemas/development.yaml").replacingOccurrences(of: "CK101", with: "CK102")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/Schemas/development.yaml"))
        let lint = try runCLI(["lint"], cwd: dir)
        #expect(!lint.stdout.contains("[CK102]"), "\(lint.stdout)")
    }

    /// The store's own check, whatever lint said: writing a schema with a hostile name is
    /// refused with CK560 before any SQL runs, and the records are untouched.
    @Test(arguments: hostile) func theStoreRefusesAHostileNameAtEverySite(name: String) throws {
        let (sb, store) = try MigratorTests.seeded()
        defer { sb.cleanup() }
        var schema = try store.schema(.development)
        let i = try #require(schema.recordTypes.firstIndex { $0.name == "Note" })
        // A B-tree index (json_extract path), an FTS table (json_each and triggers), a reference path.
        schema.recordTypes[i].fields.append(Field(name: name, type: FieldType(.string), indexes: [.queryable, .searchable]))
        #expect(throws: StoreName.Unsafe.self) { try store.db.transaction { try store.writeSchema(schema, env: .development) } }
        // A hostile record type name, on its own.
        var typed = try store.schema(.development)
        typed.recordTypes.append(RecordType(name: name, zone: "Notes", fields: [Field(name: "a", type: FieldType(.string), indexes: [.queryable])]))
        #expect(throws: StoreName.Unsafe.self) { try store.db.transaction { try store.writeSchema(typed, env: .development) } }
        // The expression builders refuse it on their own too.
        #expect(throws: StoreName.Unsafe.self) { try StoreIndexer.valueExpression(field: name, reference: true) }
        #expect(throws: InputError.self) { try Store.equalityQuery(env: .development, recordType: "Note", field: name) }
        let f = Field(name: name, type: FieldType(.string))
        #expect(throws: DataStepError.self) { try DataStepSQL.conversionSQL(from: f, to: Field(name: "b", type: FieldType(.string))) }
        let t = RecordType(name: "Note", fields: [f, Field(name: "b", type: FieldType(.string))])
        let s = Schema(recordTypes: [t])
        #expect(throws: StoreName.Unsafe.self) {
            try Migrator.dataStepUpdate(MigrationStep(.backfill(recordType: "Note", field: name, value: .constant("x", quoted: true), overwrite: false)), schema: s)
        }
        #expect(throws: StoreName.Unsafe.self) {
            try Migrator.dataStepUpdate(MigrationStep(.copy(recordType: "Note", from: "b", to: name)), schema: s)
        }
        #expect(try store.recordFields(.development, zone: "Notes", recordName: "n1") != nil)
        #expect(try store.recordFields(.development, zone: "Notes", recordName: "n2") != nil)
    }

    @Test func aBackfillExpressionNeverWritesANonFiniteNumberIntoSQL() throws {
        let t = RecordType(name: "Note", fields: [Field(name: "ratio", type: FieldType(.double))])
        // 400 digits: no int64, and as a double it is infinite.
        #expect(throws: BackfillExpression.CompileError.self) { try BackfillExpression.compile(String(repeating: "9", count: 400) + " * 2", recordType: t) }
        #expect(try BackfillExpression.compile("1500.5 * 2", recordType: t).sql.contains("1500.5"))
    }

    @Test func dottedSystemNamesAreQuotedAsOneJSONKey() throws {
        #expect(try StoreName.jsonPath("title") == "'$.title'")
        #expect(try StoreName.jsonPath("cloudkit.title") == "'$.\"cloudkit.title\"'")
        #expect(try StoreName.jsonPath("owner", then: "recordName") == "'$.owner.recordName'")
        #expect(StoreName.isSafe("___createTime"))
    }

    @Test func oneStatementPerPrepare() throws {
        let (sb, store) = try MigratorTests.seeded()
        defer { sb.cleanup() }
        #expect(throws: SQLiteError.self) { try store.db.execute("SELECT 1; DELETE FROM records") }
        #expect(throws: SQLiteError.self) { try store.db.run("SELECT 1; DELETE FROM records") }
        #expect(try store.db.scalar("SELECT count(*) FROM records")?.integer == 2)
        try store.db.execute("SELECT 1;  ")
    }

    /// A migration file's record type and field names are CloudKit names (issue #11, point 8).
    @Test(arguments: [
        ("addRecordType: { name: \"Bad'); DROP TABLE records; --\", zone: Notes }", "3:28"),
        ("addField: { recordType: Note, name: \"x'); DELETE FROM records; --\", type: string }", "3:41"),
        ("addRecordType: { name: Good, zone: Notes, fields: { \"a b\": string } }", "3:57"),
    ])
    func migrationFilesRefuseNamesCloudKitRefuses(step: String, at: String) throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        try sb.write("0002_evil.yaml", "# hostile\nsteps:\n  - \(step)\n", hash: false)
        let r = try runCLI(["migrate", "apply", "--migrations", sb.migrations, "--store", sb.store], cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("0002_evil.yaml:\(at): error:"), "\(r.stderr)")
        #expect(r.stderr.contains("[CK101]"))
    }
}
