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

/// `ckschema-disable` comments are found when a file is read and kept on the schema, so lint
/// reads no file again, and they work in every language a schema is read from.
@Suite struct SuppressionTests {
    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ckschema-suppress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let yaml = """
        ckschema: 1
        recordTypes:
          Legacy:
            fields:
              count: number  # ckschema-disable CK120: deployed in 2019, kept
              total: number  # ckschema-disable CK120
        """

    @Test func lintUsesTheCommentsFoundAtLoadAndReadsNoFile() throws {
        let path = try Self.temporaryFile("schema.yaml", Self.yaml)
        let schema = try SchemaSource.load(path: path)
        #expect(schema.suppressions.items.map(\.line) == [5, 6])
        // The file is gone: lint still honours the reasoned comment and reports the other.
        try FileManager.default.removeItem(atPath: path)
        let found = Linter().lint(schema)
        #expect(found.map(\.code).sorted() == ["CK120", "CK124"])
        #expect(found.first { $0.code == "CK120" }?.location?.line == 6)
        #expect(found.first { $0.code == "CK124" }?.location == SourceLocation(file: path, line: 6, column: 24))
    }

    @Test func aCKDBCommentSuppressesToo() throws {
        let text = """
            DEFINE SCHEMA
                RECORD TYPE Legacy (
                    "___recordID" REFERENCE QUERYABLE,
                    count NUMBER, -- ckschema-disable CK120: deployed in 2019
                    total NUMBER
                );
            """
        let schema = try SchemaSource.load(path: try Self.temporaryFile("schema.ckdb", text))
        #expect(schema.suppressions.items.count == 1)
        // `total` is reported, `count` is not.
        #expect(Linter().lint(schema).filter { $0.code == "CK120" }.map(\.location?.line) == [5])
    }

    @Test func aFolderKeepsTheCommentsOfEveryFile() throws {
        let a = try Self.temporaryFile("a.yaml", Self.yaml)
        let folder = (a as NSString).deletingLastPathComponent
        try Data("ckschema: 1\nrecordTypes:\n  Other:\n    fields:\n      n: number  # ckschema-disable CK120: kept\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/b.yaml"))
        // A file with no record type or zone: its reasonless comment is reported too.
        try Data("ckschema: 1\n# ckschema-disable CK120\nroles: [Admin]\n".utf8).write(to: URL(fileURLWithPath: folder + "/c.yaml"))
        let schema = try SchemaSource.load(path: folder)
        #expect(schema.suppressions.items.count == 4)
        let found = Linter().lint(schema)
        #expect(found.map(\.code).sorted() == ["CK120", "CK124", "CK124"])
        #expect(found.contains { $0.code == "CK124" && $0.location?.file == folder + "/c.yaml" })
    }

    @Test func commentsAreNotPartOfASchemasIdentity() throws {
        let with = try SchemaSource.parseYAML(Data(Self.yaml.utf8), file: "a.yaml").schema
        let without = try SchemaSource.parseYAML(Data(Self.yaml.replacingOccurrences(of: "ckschema-disable", with: "note").utf8), file: "a.yaml").schema
        #expect(with.suppressions.items.count == 2 && without.suppressions.items.isEmpty)
        #expect(with == without)
    }
}
