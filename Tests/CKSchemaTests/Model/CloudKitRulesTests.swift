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

/// CloudKit's rules have one home (`CloudKitRules`): lint, the `.ckdb` reader, migrations
/// and the store all ask it, and what CloudKit itself exported is valid everywhere.
@Suite struct CloudKitRulesTests {
    // MARK: What real exports show is valid

    @Test func whatCloudKitsDevelopmentEnvironmentCreatesIsValid() {
        let t = RecordType(name: "CD_Hike")
        func violations(_ f: Field, in type: RecordType = RecordType(name: "CD_Hike")) -> [CloudKitRule] {
            CloudKitRules.fieldViolations(f, in: type, database: .private, notation: .ckdb).map(\.rule)
        }
        // Every Core Data binary attribute: BYTES QUERYABLE SORTABLE; LOCATION QUERYABLE SORTABLE.
        #expect(violations(Field(name: "CD_moveReceipt", type: FieldType(.bytes), indexes: [.queryable, .sortable])).isEmpty)
        #expect(violations(Field(name: "CD_start", type: FieldType(.location), indexes: [.queryable, .sortable])).isEmpty)
        #expect(violations(Field(name: "tags", type: .list(.string), indexes: [.queryable, .searchable])).isEmpty)
        #expect(violations(Field(name: "owner", type: FieldType(.reference), indexes: [.queryable])).isEmpty)
        #expect(violations(Field(name: "notes", type: FieldType(.string), isEncrypted: true)).isEmpty)
        // CKShare's own fields on CloudKit's own record type.
        let share = RecordType(name: "cloudkit.share")
        for name in ["cloudkit.title", "cloudkit.type", "cloudkit.thumbnailImageData"] {
            #expect(violations(Field(name: name, type: FieldType(.string)), in: share).isEmpty, "\(name)")
        }
        #expect(CloudKitRules.recordTypeNameViolation("cloudkit.share") == nil)
        #expect(CloudKitRules.systemIndexViolation(.recordName, [.queryable, .sortable], in: t, notation: .yaml) == nil)
    }

    @Test func whatCloudKitRefusesIsRefusedWithOneCode() {
        func rules(_ f: Field, database: Database? = .private) -> [CloudKitRule] {
            CloudKitRules.fieldViolations(f, in: RecordType(name: "Trip"), database: database, notation: .yaml).map(\.rule)
        }
        #expect(rules(Field(name: "cloudkit.title", type: FieldType(.string))) == [.invalidName])
        #expect(rules(Field(name: "dates", type: .list(.timestamp), indexes: [.sortable])) == [.indexNotAllowed])
        #expect(rules(Field(name: "cover", type: FieldType(.asset), indexes: [.queryable])) == [.indexNotAllowed])
        #expect(rules(Field(name: "raw", type: FieldType(.bytes), indexes: [.searchable])) == [.indexNotAllowed])
        #expect(rules(Field(name: "body", type: FieldType(.string), isEncrypted: true, indexes: [.queryable])) == [.encryptedIndexed])
        #expect(rules(Field(name: "owner", type: FieldType(.reference), isEncrypted: true)) == [.encryptedTypeNotAllowed])
        #expect(rules(Field(name: "n", type: FieldType(.number), isEncrypted: true)) == [.encryptedTypeNotAllowed])
        #expect(rules(Field(name: "body", type: FieldType(.string), isEncrypted: true), database: .public) == [.encryptedInPublicDatabase])
        #expect(rules(Field(name: "recordID", type: FieldType(.string))) == [.reservedFieldName])
        #expect(CloudKitRules.systemIndexViolation(.createdAt, [.searchable], in: RecordType(name: "T"), notation: .ckdb)?.message
                == "system field 'T.___createTime' cannot be SEARCHABLE")
    }

    // MARK: The same finding from both languages

    /// An encrypted queryable field, ENCRYPTED on a reference, a sortable list...: the `.ckdb`
    /// reader reads them and lint reports them with the YAML form's codes and exit status.
    @Test(arguments: ["ckdb", "yaml"])
    func ckdbAndYAMLGiveTheSameFindings(ext: String) throws {
        let rel = "Tests/Fixtures/lint/parity/rules-bad.\(ext)"
        let r = try runCLI(["lint", rel])
        #expect(r.code == 1)
        #expect(r.stderr.isEmpty)
        try expectMatchesFixture(r.stdout, rel + ".expected")
        // The rule codes in order of the lines that carry one.
        func codes(_ text: String) -> [String] {
            text.split(separator: "\n").compactMap { line in line.range(of: "[CK").map { String(line[$0.lowerBound...].prefix(7)) } }
        }
        let other = ext == "ckdb" ? "yaml" : "ckdb"
        let otherOut = try read(Paths.root + "/Tests/Fixtures/lint/parity/rules-bad.\(other).expected")
        #expect(codes(r.stdout) == codes(otherOut))
    }

    // MARK: Migrations ask the same rules and decode fields as schema files do

    @Test func migrationsAcceptWhatLintAcceptsAndRefuseWithLintsCode() throws {
        let ok = try MigrationFileTests.parse("steps:\n  - addRecordType:\n      name: CD_Hike\n      fields:\n        CD_moveReceipt: { type: bytes, indexes: [queryable, sortable] }\n        CD_start: { type: location, indexes: [queryable, sortable] }\n", name: "0001_a.yaml")
        var schema = Schema()
        try SchemaChanger.apply(ok, to: &schema)
        #expect(schema.recordType(named: "CD_Hike")?.fields.count == 2)
        let bad = try MigrationFileTests.parse("steps:\n  - addField: { recordType: CD_Hike, name: dates, type: list<timestamp>, indexes: [sortable] }\n", name: "0002_b.yaml")
        let e = try #require(throws: InputError.self) { try SchemaChanger.apply(bad, to: &schema) }
        #expect(e.diagnostics.map(\.code) == ["CK104"])
        #expect(e.diagnostics[0].message == "addField: field 'CD_Hike.dates' is of type list<timestamp> and cannot be sortable; a list has no order to sort by")
        #expect(e.diagnostics[0].location?.line == 2)
    }

    /// `encrypted: yes` is not true: a migration's field is read by the schema decoder, with
    /// its strict booleans, keys and codes.
    @Test func migrationFieldsDecodeLikeSchemaFiles() throws {
        let cases: [(String, String, String)] = [
            ("steps:\n  - addField: { recordType: Note, name: secret, type: string, encrypted: yes }\n", "CK012", "'encrypted' must be true or false, found 'yes'"),
            ("steps:\n  - addField: { recordType: Note, name: secret, type: strng }\n", "CK012", "unknown field type 'strng'; did you mean 'string'?"),
            ("steps:\n  - addField: { recordType: Note, name: secret, typ: string }\n", "CK011", "unknown key 'typ'"),
            ("steps:\n  - addRecordType: { name: Note, fields: { a: { type: string, deprecated: nope } } }\n", "CK012", "'deprecated' must be true or false, found 'nope'"),
            ("steps:\n  - addRecordType: { name: Note, feilds: { a: string } }\n", "CK011", "unknown key 'feilds' in `addRecordType`; did you mean 'fields'?"),
            ("steps:\n  - addRecordType: { name: 2Fast }\n", "CK101", "record type name '2Fast' is not valid"),
            ("steps:\n  - addField: { recordType: Note, name: \"bad name\", type: string }\n", "CK101", "field name 'Note.bad name' is not valid"),
        ]
        for (text, code, fragment) in cases {
            let e = try #require(throws: InputError.self) { try MigrationFileTests.parse(text, name: "0001_x.yaml") }
            #expect(e.diagnostics.first?.code == code, "\(text)")
            #expect(e.diagnostics.first?.message.contains(fragment) == true, "\(e.diagnostics.first?.message ?? "")")
            #expect(e.diagnostics.first?.location?.line == 2)
        }
        // And the schema file says the same of the same mistake.
        let schemaError = try #require(throws: InputError.self) {
            try SchemaSource.parseYAML(Data("ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      secret: { type: string, encrypted: yes }\n".utf8), file: "s.yaml")
        }
        #expect(schemaError.diagnostics.first?.code == "CK012")
        #expect(schemaError.diagnostics.first?.message == "'encrypted' must be true or false, found 'yes'")
    }

    /// `validate` in development reports a key CloudKit would not add with lint's code.
    @Test func validateAsksTheSameNameRule() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "ckschema: 1\nrecordTypes:\n  Trip:\n    fields:\n      title: string\n".write(toFile: dir + "/s.yaml", atomically: true, encoding: .utf8)
        try """
            {"recordName":"a","recordType":"Trip","fields":{"title":{"value":"x"},"new field":{"value":"y"}}}
            {"recordName":"b","recordType":"Trip","fields":{"title":{"value":"x"},"rating":{"value":3}}}

            """.write(toFile: dir + "/r.ndjson", atomically: true, encoding: .utf8)
        let r = try runCLI(["validate", "--env", "development", "--schema", dir + "/s.yaml", dir + "/r.ndjson"])
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("field name 'Trip.new field' is not valid"), "\(r.stdout)")
        #expect(r.stdout.contains("[CK101]"))
        #expect(!r.stdout.contains("'Trip.rating' is not valid"))
    }

    // MARK: Every real-shaped schema becomes a store

    /// The issue's walk: lint exits 0; imported into a fresh project, `migrate new` and
    /// `migrate apply` succeed; records that fit it import. Over the project's own fixtures,
    /// always.
    @Test(arguments: ownCKDBFiles)
    func ownRealShapedSchemaBecomesAStore(file: String) throws {
        try walk(file)
    }

    /// The same walk over every file CloudKit exported or accepted (../shared/corpus).
    @Test(.enabled(if: Corpus.available, Corpus.skipNote), arguments: Corpus.available ? corpusFiles.map(CKDBPaths.corpusFile) : [])
    func corpusSchemaBecomesAStore(file: String) throws {
        try walk(file)
    }

    func walk(_ file: String) throws {
        let lint = try runCLI(["lint", file])
        #expect(lint.code == 0, "\(file): \(lint.stdout)\(lint.stderr)")
        let dir = try makeTempDir("ckschema-walk")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init", "--container", "iCloud.com.example.Walk"], cwd: dir).code == 0)
        let imported = try runCLI(["import", file, "-o", "Schemas/development.yaml"], cwd: dir)
        #expect(imported.code == 0, "\(imported.stderr)")
        #expect(try runCLI(["lint"], cwd: dir).code == 0)
        let new = try runCLI(["migrate", "new", "initial"], cwd: dir)
        #expect(new.code == 0, "\(file): \(new.stdout)\(new.stderr)")
        let apply = try runCLI(["migrate", "apply"], cwd: dir)
        #expect(apply.code == 0, "\(file): \(apply.stdout)\(apply.stderr)")
        let status = try runCLI(["migrate", "status"], cwd: dir)
        #expect(status.code == 0, "\(status.stdout)")
        // One record per custom record type, with a value for each plain scalar field.
        let schema = try SchemaSource.load(path: dir + "/Schemas/development.yaml")
        var lines: [String] = []
        for (i, t) in schema.recordTypes.enumerated() where !t.isSystemType {
            var fields: [String] = []
            for f in t.fields where !f.type.isList && !f.isEncrypted {
                switch f.type.primitive {
                case .string: fields.append("\"\(f.name)\":{\"value\":\"x\",\"type\":\"STRING\"}")
                case .int64: fields.append("\"\(f.name)\":{\"value\":7,\"type\":\"INT64\"}")
                case .double: fields.append("\"\(f.name)\":{\"value\":1.5,\"type\":\"DOUBLE\"}")
                case .timestamp: fields.append("\"\(f.name)\":{\"value\":1719822600000,\"type\":\"TIMESTAMP\"}")
                default: break
                }
            }
            lines.append("{\"recordName\":\"r\(i)\",\"recordType\":\"\(t.name)\",\"fields\":{\(fields.joined(separator: ","))}}")
        }
        guard !lines.isEmpty else { return }
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/records.ndjson", atomically: true, encoding: .utf8)
        let records = try runCLI(["records", "import", "--env", "development", "records.ndjson"], cwd: dir)
        #expect(records.code == 0, "\(file): \(records.stdout)\(records.stderr)")
    }
}
