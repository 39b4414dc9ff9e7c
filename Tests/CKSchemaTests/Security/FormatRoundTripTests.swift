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

/// Issue #11, defect 7: `fmt` output always parses back to the same model. A property over
/// every YAML schema in the repository's fixtures (and the fuzzer's finds in
/// `Tests/Fixtures/security`), not only the formatter's own fixtures.
@Suite struct FormatRoundTripTests {
    /// Every YAML file under Tests/Fixtures and Schemas/ that loads as a schema.
    static let files: [String] = {
        var out: [String] = []
        for base in [Paths.root + "/Tests/Fixtures", Paths.root + "/Schemas"] {
            guard let e = FileManager.default.enumerator(atPath: base) else { continue }
            while let rel = e.nextObject() as? String {
                if rel.hasSuffix(".yaml") { out.append(base + "/" + rel) }
            }
        }
        return out.sorted()
    }()

    @Test func thereAreManyFilesToCheck() {
        #expect(Self.files.count > 50)
        #expect(Self.files.contains(Paths.fixture("security/line-separators.yaml")))
    }

    /// The files that load as schemas (not records, migrations or bad fixtures), chosen before
    /// the test runs so that no argument passes by returning early.
    static let schemas: [String] = files.filter { (try? SchemaSource.loadYAMLFile(path: $0)) != nil }

    @Test func manyFilesAreSchemas() {
        #expect(Self.schemas.count > 40, "\(Self.schemas.count) of \(Self.files.count)")
        #expect(Self.schemas.contains(Paths.fixture("security/line-separators.yaml")))
    }

    @Test(arguments: schemas)
    func formatThenReparseGivesTheSameModel(path: String) throws {
        let original = try SchemaSource.loadYAMLFile(path: path)
        let once = SchemaFormatter.format(original)
        let reloaded = try SchemaSource.parseYAML(Data(once.utf8), file: path)
        #expect(reloaded.schema == original.schema, "\(path)")
        #expect(SchemaFormatter.format(reloaded) == once, "\(path)")
    }

    @Test func lineSeparatorsSurviveFmtWriteThroughTheBinary() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.yaml"
        try FileManager.default.copyItem(atPath: Paths.fixture("security/line-separators.yaml"), toPath: path)
        #expect(try runCLI(["fmt", "--write", path]).code == 0)
        let lint = try runCLI(["lint", path])
        #expect(lint.code == 0, "\(lint.stdout)\(lint.stderr)")
        let schema = try SchemaSource.load(path: path)
        let note = try #require(schema.recordType(named: "Note"))
        #expect(note.description == "first\u{2028}second\u{2029}third")
        #expect(note.field(named: "title")?.description == "a\u{85}b\u{7F}c\u{9B}d")
        #expect(note.field(named: "body")?.description == "tab\there \u{FEFF} bom")
        #expect(try runCLI(["fmt", "--check", path]).code == 0)
    }

    /// FuzzFmt's finds that load: `fmt --write` leaves a file that reads back (lint exit 0 or 1, never 2).
    @Test(arguments: ["fuzz-fmt-empty-system-field.yaml", "fuzz-fmt-comment-with-cr.yaml", "fuzz-fmt-noncharacter.yaml"])
    func fuzzFindsSurviveFmtWriteThroughTheBinary(name: String) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.yaml"
        try FileManager.default.copyItem(atPath: Paths.fixture("security/" + name), toPath: path)
        let write = try runCLI(["fmt", "--write", path])
        #expect(write.code == 0, "\(write.stderr)")
        let lint = try runCLI(["lint", path])
        #expect(lint.code != 2, "\(lint.stdout)\(lint.stderr)")
        #expect(try SchemaSource.loadYAMLFile(path: path).schema == (try SchemaSource.loadYAMLFile(path: Paths.fixture("security/" + name)).schema))
    }

    /// Found by FuzzFmt: `? {trip: ...}` keys were read as '' and `fmt` wrote `"": {}` twice.
    @Test func aComplexKeyIsRefusedNotFormattedIntoADuplicate() throws {
        let path = Paths.fixture("security/fuzz-fmt-complex-keys.yaml")
        let r = try runCLI(["fmt", "--check", path])
        #expect(r.code == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("fuzz-fmt-complex-keys.yaml:6:8: error: a key in 'recordTypes' must be a name, found a mapping [CK010]"), "\(r.stderr)")
    }

    @Test(arguments: ["a\u{2028}b", "a\u{85}b", "\u{2029}", "x\u{7F}", "\u{9B}y", "\u{FEFF}z", "tab\tin", "bell\u{07}", "non\u{FFFF}char\u{FFFE}"])
    func scalarsWithLineBreaksReadBack(text: String) throws {
        let yaml = "ckschema: 1\nrecordTypes:\n  Note:\n    description: \(SchemaEmitter.scalar(text))\n    fields:\n      f: { type: string, description: \(SchemaEmitter.scalar(text, inFlow: true)) }\n"
        let file = try SchemaSource.parseYAML(Data(yaml.utf8), file: "s.yaml")
        #expect(file.schema.recordTypes.first?.description == text)
        #expect(file.schema.recordTypes.first?.fields.first?.description == text)
    }

    /// Issue #11, point 8: `validate --infer` writes YAML it can read back, whatever the names.
    @Test func inferredYAMLReadsBack() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("ckschema: 1\nrecordTypes:\n  Note: {}\n".utf8).write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let line = #"{"recordName":"n1","recordType":"Note","fields":{"a\u001bb":{"value":"x","type":"STRING"},"c\u2028d":{"value":1,"type":"INT64"}}}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: dir + "/r.ndjson"))
        let r = try runCLI(["validate", "--env", "development", "--infer", "--schema", dir + "/s.yaml", dir + "/r.ndjson"], cwd: dir)
        let start = try #require(r.stdout.range(of: "# The schema change"))
        let yaml = String(r.stdout[start.lowerBound...])
        #expect(!OutputEscapingTests.hasRawControl(yaml), "\(yaml)")
        let file = try SchemaSource.parseYAML(Data(yaml.utf8), file: "inferred.yaml")
        // CloudKit would not add a field under either name (CK101, from CloudKitRules), so the
        // change holds neither; what it holds reads back.
        #expect(r.stdout.components(separatedBy: "[CK101]").count == 3, "\(r.stdout)")
        #expect(file.schema.recordTypes.first?.fields.isEmpty ?? true)
    }
}
