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

/// `fmt` is idempotent, keeps comments, and never changes the model.
@Suite struct FormatTests {
    static let files: [String] = {
        var out = [Paths.root + "/Schemas/development.yaml", Paths.root + "/Schemas/production.yaml", Paths.fixture("fmt/messy.yaml")]
        let dir = Paths.fixture("lint")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        out += names.filter { $0.hasSuffix(".yaml") }.sorted().map { dir + "/" + $0 }
        return out
    }()

    @Test(arguments: files)
    func formattingIsIdempotentAndKeepsTheModel(path: String) throws {
        let original = try SchemaSource.loadYAMLFile(path: path)
        let once = SchemaFormatter.format(original)
        let reloaded = try SchemaSource.parseYAML(Data(once.utf8), file: path)
        #expect(reloaded.schema == original.schema)
        let twice = SchemaFormatter.format(reloaded)
        #expect(twice == once)
        // Every comment survives.
        #expect(reloaded.comments.map(\.text) == original.comments.map(\.text))
    }

    @Test func messyFileFormatsToTheExpectedText() throws {
        let file = try SchemaSource.loadYAMLFile(path: Paths.fixture("fmt/messy.yaml"))
        #expect(SchemaFormatter.format(file) == (try read(Paths.fixture("fmt/messy.formatted.yaml"))))
    }

    @Test func checkAndWriteThroughTheBinary() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/schema.yaml"
        try FileManager.default.copyItem(atPath: Paths.fixture("fmt/messy.yaml"), toPath: path)
        let check = try runCLI(["fmt", "--check", path])
        #expect(check.code == 1)
        #expect(check.stdout.contains("schema.yaml:2:1: error: the file is not formatted"))
        let write = try runCLI(["fmt", "--write", path])
        #expect(write.code == 0)
        // Issue 22: --write says what it wrote, and then what it left alone.
        #expect(write.stderr == "wrote \(path)\nckschema fmt: 1 file rewritten, 0 files already canonical\n")
        #expect(try read(path) == (try read(Paths.fixture("fmt/messy.formatted.yaml"))))
        let twice = try runCLI(["fmt", "--write", path])
        #expect(twice.stderr == "ckschema fmt: 0 files rewritten, 1 file already canonical\n")
        let again = try runCLI(["fmt", "--check", path])
        #expect(again.code == 0)
        #expect(again.stdout.isEmpty)
    }

    @Test func exampleSchemasAreFormatted() throws {
        let result = try runCLI(["fmt", "--check"])
        #expect(result.code == 0, "\(result.stdout)")
    }

    @Test(arguments: ["plain", "with: colon", "#hash", "true", "123", "", " lead", "a, b", "quote\"d", "ünï", "- dash", "x # y"])
    func scalarsReadBackAsWritten(text: String) throws {
        let yaml = "ckschema: 1\nrecordTypes:\n  Note:\n    description: \(SchemaEmitter.scalar(text))\n    fields:\n      f: { type: string, description: \(SchemaEmitter.scalar(text, inFlow: true)) }\n"
        let file = try SchemaSource.parseYAML(Data(yaml.utf8), file: "s.yaml")
        #expect(file.schema.recordTypes.first?.description == (text.isEmpty ? nil : text) || text.isEmpty)
        if !text.isEmpty { #expect(file.schema.recordTypes.first?.fields.first?.description == text) }
    }

    /// The emitter writes an index list from a table chosen by the set's bits: each of the eight
    /// sets comes out as its kinds in `IndexKind.allCases` order, as the word-by-word writer did.
    @Test func everyIndexSetIsWrittenAsItsKinds() {
        for bits in UInt8(0)..<8 {
            let indexes = IndexKinds(bits: bits)
            let field = Field(name: "f", type: FieldType(.string), indexes: indexes)
            var out: [UInt8] = []
            withUnsafePointer(to: field) { SchemaEmitter.appendFieldValue($0, to: &out) }
            let expected = indexes.isEmpty ? "string"
                : "{ type: string, indexes: [" + indexes.kinds.map(\.rawValue).joined(separator: ", ") + "] }"
            #expect(String(decoding: out, as: UTF8.self) == expected, "bits \(bits)")
        }
    }
}
