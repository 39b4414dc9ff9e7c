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


/// Issue 18, point 2: the record wire format has one home (`TypeTag`): the type names of Web
/// Services and cktool, the empty list and the encrypted forms. `validate`, `records import`,
/// the store and the JSON Schema export read the same table, so a record one accepts the
/// other accepts (`records import` used to refuse `"type": "EMPTY_LIST"` as CK553 "unknown
/// type" while `validate` took it).
@Suite struct WireFormatTests {
    @Test func everySpellingReadsBackAsItsTag() throws {
        #expect(TypeTag.all.count >= 78)
        for (name, tag) in TypeTag.all { #expect(TypeTag.named(name) == tag, "\(name)") }
        #expect(TypeTag.named("EMPTY_LIST")?.primitive == nil && TypeTag.named("emptyListType")?.isList == true)
        #expect(TypeTag.named("ASSETID")?.primitive == .asset && TypeTag.named("ASSET")?.primitive == .asset)
        #expect(TypeTag.named("encryptedStringListType") == TypeTag(primitive: .string, isList: true, isEncrypted: true))
        #expect(TypeTag.named("STRINGTYPE") == nil && TypeTag.named("string") == nil, "only the documented spellings")
    }

    @Test func theExportListsWhatTheCheckerAccepts() {
        let types: [FieldType] = PrimitiveType.allCases.flatMap { [FieldType($0, isList: false), FieldType($0, isList: true)] }
        for t in types {
            for encrypted in [false, true] {
                let spelled = TypeTag.spellings(for: t, encrypted: encrypted)
                #expect(spelled.count >= 2)
                for name in spelled {
                    let tag = TypeTag.named(name)
                    #expect(tag?.fits(t) == true && tag?.isEncrypted == encrypted, "\(name) for \(t)")
                }
                // Every other spelling that fits is listed too.
                for (name, tag) in TypeTag.all where tag.primitive != nil && tag.fits(t) && tag.isEncrypted == encrypted {
                    #expect(spelled.contains(name), "\(name) fits \(t) but the JSON Schema would refuse it")
                }
            }
            #expect(TypeTag.named("EMPTY_LIST")?.fits(t) == t.isList)
        }
        #expect(TypeTag.spellings(for: FieldType(.asset, isList: false), encrypted: false) == ["ASSETID", "assetType", "ASSET"])
    }

    /// A store holding the record fixtures' schema in production and development.
    static func store() throws -> (dir: String, path: String) {
        let dir = try makeTempDir("ckschema-wire")
        let path = dir + "/store.sqlite"
        let schema = try SchemaSource.load(path: Paths.fixture("records/schema.yaml"))
        let store = try Store(path: path)
        try store.db.transaction {
            try store.writeSchema(schema, env: .production)
            try store.writeSchema(schema, env: .development)
        }
        return (dir, path)
    }

    /// The NDJSON fixtures `validate` passes in production with no other option (`records
    /// import` reads NDJSON only; JSON arrays and YAML are validate's).
    static let passing: [String] = RecordFixtureTests.fixtures.filter { f in
        f.hasSuffix(".ndjson") && RecordFixtureTests.arguments(f).isEmpty && (f.contains(".pass.") || f.hasPrefix("valid."))
            && ((try? read(Paths.root + "/" + RecordFixtureTests.folder + "/" + f + ".expected"))?.contains("error:") == false)
    }

    @Test func thereArePassingFixtures() { #expect(Self.passing.count >= 12, "\(Self.passing)") }

    @Test(arguments: passing)
    func whatValidateAcceptsImportAccepts(fixture: String) throws {
        let path = Paths.root + "/" + RecordFixtureTests.folder + "/" + fixture
        let validate = try runCLI(["validate", "--schema", Paths.fixture("records/schema.yaml"), path])
        #expect(validate.code == 0, "\(fixture): \(validate.stdout)")
        let (dir, store) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let imported = try runCLI(["records", "import", "--env", "production", "--store", store, path], cwd: dir)
        #expect(imported.code == 0, "\(fixture): validate accepts it, records import refuses it:\n\(imported.stdout)\(imported.stderr)")
    }

    @Test func anEmptyListIsAcceptedByBoth() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("records/schema.yaml"))
        let type = try #require(schema.recordTypes.first { t in t.fields.contains { $0.type.isList && !$0.isEncrypted && !$0.isDeprecated } })
        let list = try #require(type.fields.first { $0.type.isList && !$0.isEncrypted && !$0.isDeprecated })
        let (dir, store) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/empty.ndjson"
        let zone = type.zone.map { #","zoneID":{"zoneName":"\#($0)"}"# } ?? ""
        let line = #"{"recordName":"e1","recordType":"\#(type.name)"\#(zone),"fields":{"\#(list.name)":{"value":[],"type":"EMPTY_LIST"}}}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let validate = try runCLI(["validate", "--schema", Paths.fixture("records/schema.yaml"), file])
        #expect(validate.code == 0, "\(validate.stdout)")
        let imported = try runCLI(["records", "import", "--env", "production", "--store", store, file], cwd: dir)
        #expect(imported.code == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(!imported.stdout.contains("CK553") && !imported.stderr.contains("CK553"))
    }

    @Test func timestampTextIsReadOnceAndExactly() {
        #expect(WireValue.isoMilliseconds("1970-01-01T00:00:00Z") == 0)
        #expect(WireValue.isoMilliseconds("2024-05-01T12:00:00Z") == 1_714_564_800_000)
        #expect(WireValue.isoMilliseconds("2024-05-01T14:00:00+02:00") == 1_714_564_800_000)
        #expect(WireValue.isoMilliseconds("2024-05-01T12:00:00.5Z") == 1_714_564_800_500)
        #expect(WireValue.isoMilliseconds("2024-05-01T12:00:00.123456Z") == 1_714_564_800_123)
        #expect(WireValue.isoMilliseconds("2024-05-01") == 1_714_521_600_000)
        #expect(WireValue.isoMilliseconds("1969-12-31T23:59:59Z") == -1000)
        #expect(WireValue.isoMilliseconds("2000-02-29") != nil && WireValue.isoMilliseconds("2001-02-29") == nil)
        for bad in ["2024-13-01", "2024-00-10", "2024-04-31", "2024-05-01T24:00Z", "2024-05-01T12:60Z", "2024-05-01T12:00:00Q", "292278995-01-01", "", "2024-05-01T"] {
            #expect(WireValue.isoMilliseconds(bad) == nil, "\(bad)")
        }
        // Foundation agrees wherever both read the text (from 1583: before it Foundation counts
        // Julian days, while ISO 8601 is proleptic Gregorian).
        let f = ISO8601DateFormatter()
        for s in ["2024-02-29T23:59:59Z", "1999-12-31T00:00:00Z", "2038-01-19T03:14:08Z", "1600-03-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
            let expected = f.date(from: s).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
            #expect(WireValue.isoMilliseconds(s) == expected, "\(s)")
        }
    }

    @Test func base64PaddingIsOptionalInBoth() {
        #expect(WireValue.base64Length("aGk") == 2 && WireValue.base64Length("aGk=") == 2)
        #expect(WireValue.base64Length("a") == nil && WireValue.base64Length("a$==") == nil)
        if case .success = FieldValue.storage(fromWebServices: .string("aGk"), type: FieldType(.bytes, isList: false)) {} else {
            Issue.record("the store refuses unpadded base64 that validate accepts")
        }
    }
}
