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

/// Issue #11, defects 2 and 3: `records import` never traps and never changes or drops a
/// value without a diagnostic; it infers the schema change `validate --infer` infers.
@Suite struct RecordIntegrityTests {
    /// A store with the fixture history's first two migrations in development (Note has
    /// title, body, views, wordCount and the encrypted `secret`).
    static func sandbox() throws -> MigrationSandbox {
        let sb = try MigrationSandbox(fixtureCount: 2)
        _ = try Migrator.apply(folder: try sb.folder(), store: try sb.open(), options: .init())
        return sb
    }

    static func importLines(_ lines: [String], _ sb: MigrationSandbox, env: String = "development") throws -> CLIResult {
        let file = sb.root + "/in.ndjson"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        return try runCLI(["records", "import", "--env", env, "--store", sb.store, file], cwd: sb.root)
    }

    static func note(_ name: String, _ fields: String, extra: String = "") -> String {
        #"{"recordName":"\#(name)","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{\#(fields)}\#(extra)}"#
    }

    @Test(arguments: [
        #""views":{"value":1e19,"type":"INT64"}"#,
        #""created":{"value":1e19,"type":"TIMESTAMP"}"#,
        #""created":{"value":-9.3e18,"type":"TIMESTAMP"}"#,
        #""created":{"value":1e400,"type":"TIMESTAMP"}"#,
        #""created":{"value":[1e19],"type":"TIMESTAMP_LIST"}"#,
    ])
    func outOfRangeNumbersAreRefusedNotTrapped(field: String) throws {
        let sb = try Self.sandbox()
        defer { sb.cleanup() }
        let r = try Self.importLines([Self.note("n1", field)], sb)
        #expect(r.code == 1, "\(r.stderr)")
        #expect(r.stdout.contains("record #1 'n1', field '"), "\(r.stdout)")
        #expect(r.stdout.contains("saved 0 records"))
    }

    @Test func aNonFiniteDoubleIsRefusedByValidateAndImportAlike() throws {
        let sb = try Self.sandbox()
        defer { sb.cleanup() }
        let r = try Self.importLines([Self.note("n1", #""ratio":{"value":1e400,"type":"DOUBLE"}"#)], sb)
        #expect(r.code == 1)
        #expect(r.stdout.contains("in.ndjson:1:97: error: record #1 'n1', field 'ratio': the number is out of range for a double (CloudKit refuses infinity) [CK403]"), "\(r.stdout)")
        // Nothing was stored, and the failing record added no field to the schema.
        #expect(try sb.open().recordFields(.development, zone: "Notes", recordName: "n1") == nil)
        #expect(try sb.open().schema(.development).recordType(named: "Note")?.field(named: "ratio") == nil)
    }

    @Test func encryptedValuesAreStoredNotDropped() throws {
        let sb = try Self.sandbox()
        defer { sb.cleanup() }
        let r = try Self.importLines([
            Self.note("n1", #""title":{"value":"t","type":"STRING"}"#, extra: #","encryptedValues":{"secret":{"value":"s1","type":"STRING"}}"#),
            Self.note("n2", #""secret":{"value":"s2","type":"STRING","isEncrypted":true}"#),
            Self.note("n3", #""secret":{"value":"s3","type":"ENCRYPTED_STRING"}"#),
        ], sb)
        #expect(r.code == 0, "\(r.stdout)")
        let store = try sb.open()
        for (n, v) in [("n1", "s1"), ("n2", "s2"), ("n3", "s3")] {
            let fields = try JSONValue.parse(try #require(try store.recordFields(.development, zone: "Notes", recordName: n)))
            #expect(fields["secret"] == .string(v), "\(n)")
        }
        // Export writes them back as encrypted values.
        let out = try runCLI(["records", "export", "--env", "development", "--store", sb.store], cwd: sb.root)
        #expect(out.stdout.contains(#""secret":{"value":"s1","type":"ENCRYPTED_STRING"}"#), "\(out.stdout)")
    }

    @Test func aJustInTimeFieldKeepsItsEncryptionAsValidateInfers() throws {
        let sb = try Self.sandbox()
        defer { sb.cleanup() }
        let lines = [
            Self.note("n1", #""diary":{"value":"hush","type":"ENCRYPTED_STRING"}"#),
            Self.note("n2", #""mood":{"value":3,"type":"INT64"}"#, extra: #","encryptedValues":{"pin":{"value":"1234","type":"STRING"}}"#),
            Self.note("n3", #""ratio":1.5"#),
        ]
        // What validate --infer says, against the store's development schema.
        let schemaFile = sb.root + "/dev.yaml"
        try Data(try sb.open().schema(.development).canonicalYAML.utf8).write(to: URL(fileURLWithPath: schemaFile))
        let file = sb.root + "/in.ndjson"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let inferred = try runCLI(["validate", "--env", "development", "--infer", "--schema", schemaFile, file], cwd: sb.root)
        #expect(inferred.stdout.contains("diary: { type: string, encrypted: true }"), "\(inferred.stdout)")
        #expect(inferred.stdout.contains("pin: { type: string, encrypted: true }"))
        let r = try Self.importLines(lines, sb)
        #expect(r.code == 0, "\(r.stdout)")
        #expect(r.stdout.contains("development added field Note.diary (string, encrypted)"), "\(r.stdout)")
        let note = try #require(try sb.open().schema(.development).recordType(named: "Note"))
        #expect(note.field(named: "diary")?.isEncrypted == true)
        #expect(note.field(named: "pin")?.isEncrypted == true)
        #expect(note.field(named: "mood")?.isEncrypted == false)
        #expect(note.field(named: "ratio")?.type == FieldType(.double))
        // The same fields validate --infer names, with the same encryption.
        for name in ["diary", "pin", "mood", "ratio"] { #expect(inferred.stdout.contains("\(name):"), "\(name)") }
    }

    @Test func encryptionMismatchIsRefusedByTheImportersOwnChecks() throws {
        let (sb, store) = try RecordImportTests.migrated()
        defer { sb.cleanup() }
        let file = sb.root + "/e.ndjson"
        try Data((Self.note("n1", #""title":{"value":"t","type":"ENCRYPTED_STRING"}"#) + "\n").utf8).write(to: URL(fileURLWithPath: file))
        var options = RecordImporter.Options(environment: .development)
        options.runsRecordChecks = false
        let r = try RecordImporter.importFiles([file], into: store, options: options)
        #expect(r.failed == 1)
        #expect(r.diagnostics.first?.message == "record #1 'n1', field 'title': not encrypted in the schema but written as encrypted")
    }

    /// Issue #11, point 8: a backfill constant beyond int64 milliseconds is refused, not stored negative.
    @Test(arguments: ["292278995-01-01T00:00:00Z", "99999-01-01T00:00:00Z", "+2024-01-01T00:00:00Z"])
    func aBackfillDateOutsideTheRangeIsRefused(date: String) throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        try sb.write("0002_when.yaml", """
            steps:
              - addField: { recordType: Note, name: seen, type: timestamp }
              - backfill: { recordType: Note, field: seen, value: "\(date)" }

            """)
        let r = try runCLI(["migrate", "apply", "--migrations", sb.migrations, "--store", sb.store], cwd: sb.root)
        #expect(r.code == 2, "\(r.stdout)\(r.stderr)")
        #expect((r.stdout + r.stderr).contains("[CK516]"))
        #expect(try FieldValue.storage(fromConstant: "2024-01-31T12:00:00Z", quoted: true, type: FieldType(.timestamp)).get() == .int(1_706_702_400_000))
    }

    @Test func aHugeLockTimeoutDoesNotTrap() throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        let r = try runCLI(["migrate", "apply", "--migrations", sb.migrations, "--store", sb.store, "--lock-timeout", "1e300"], cwd: sb.root)
        #expect(r.code == 0, "\(r.stderr)")
    }
}
