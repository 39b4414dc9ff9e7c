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

/// Malformed schema files get exit 2 and a file:line:col diagnostic, never a crash.
@Suite struct InputTests {
    static let fixtures: [String] = {
        let dir = Paths.fixture("input")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".expected") }.map { String($0.dropLast(".expected".count)) }.sorted()
    }()

    @Test func thereAreFixtures() { #expect(Self.fixtures.count >= 15) }

    @Test(arguments: fixtures)
    func malformedFileGetsItsDiagnostic(name: String) throws {
        let isFolder = name == "duplicate-folder"
        let rel = "Tests/Fixtures/input/\(name)" + (isFolder ? "" : ".yaml")
        let result = try runCLI(["lint", rel])
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty)
        try expectMatchesFixture(result.stderr, Paths.fixture("input/\(name).expected"))
        // The diagnostic names the file, a line and a column.
        #expect(result.stderr.hasPrefix("Tests/Fixtures/input/"))
        #expect(result.stderr.range(of: #"^\S+:\d+:\d+: error: "#, options: .regularExpression) != nil)
    }

    @Test func libraryThrowsInputErrorWithCode() throws {
        #expect(throws: InputError.self) { try SchemaSource.load(path: Paths.fixture("input/alias-bomb.yaml")) }
        do {
            _ = try SchemaSource.load(path: Paths.fixture("input/deep-nesting.yaml"))
            Issue.record("deep nesting loaded")
        } catch {
            #expect(error.diagnostics.first?.code == InputRules.tooDeep.code)
        }
    }

    @Test func fiftyMegabyteFileIsRefusedWithoutReadingIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/huge.yaml"
        var chunk = "ckschema: 1\nrecordTypes:\n"
        let line = "  T\(String(repeating: "x", count: 40)): {}\n"
        chunk.reserveCapacity(1 << 20)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(chunk.utf8))
        let block = Data(String(repeating: line, count: 1 << 20 / line.utf8.count).utf8)
        for _ in 0..<50 { handle.write(block) }
        try handle.close()
        let result = try runCLI(["lint", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("huge.yaml:1:1: error: file is 50.0 MB; the limit for this kind of file is 32.0 MB [CK001]"))
    }

    /// Large mappings are checked by sorting their keys; the report names the right places.
    @Test func duplicateKeyInALargeMapping() throws {
        var text = "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n"
        for i in 0..<50 { text += "      f\(i): string\n" }
        text += "      f7: int64\n      f3: int64\n"
        do {
            _ = try SchemaSource.parseYAML(Data(text.utf8), file: "big.yaml")
            Issue.record("duplicate keys loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.code == InputRules.duplicateKey.code)
            #expect(d.location == SourceLocation(file: "big.yaml", line: 55, column: 7))
            #expect(d.message == "duplicate key 'f7' in one mapping; the first is at line 12, column 7")
        }
    }

    @Test func missingFileIsExitTwo() throws {
        let result = try runCLI(["lint", "Schemas/nope.yaml"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("no such schema file or folder 'Schemas/nope.yaml'"))
    }

    @Test func aliasesWithinBoundsExpand() throws {
        let text = """
        ckschema: 1
        recordTypes:
          A:
            fields:
              title: &t { type: string, indexes: [queryable] }
          B:
            fields:
              title: *t

        """
        let file = try SchemaSource.parseYAML(Data(text.utf8), file: "aliases.yaml")
        #expect(file.schema.recordType(named: "B")?.field(named: "title")?.indexes == [.queryable])
    }

    @Test func locationsAreOneBased() throws {
        let text = "ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: string\n"
        let file = try SchemaSource.parseYAML(Data(text.utf8), file: "n.yaml")
        let loc = try #require(file.schema.recordType(named: "Note")?.field(named: "title")?.origin.location)
        #expect(loc == SourceLocation(file: "n.yaml", line: 5, column: 7))
    }

    @Test func folderSourceMergesFiles() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "ckschema: 1\nrecordTypes:\n  A: {}\n".write(toFile: dir + "/a.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nzones:\n  Z: { database: private }\nrecordTypes:\n  B: { zone: Z }\n".write(toFile: dir + "/b.yaml", atomically: true, encoding: .utf8)
        let schema = try SchemaSource.load(path: dir)
        #expect(schema.recordTypes.map(\.name) == ["A", "B"])
        #expect(schema.zones.map(\.name) == ["Z"])
    }
}

/// The YAML reader's did-you-means carry fix-its only where the change is exact, and applying
/// every one of them mends exactly the findings that had one.
@Suite struct ReaderFixItTests {
    static let text = """
        ckschema: 1
        recordTypes:
          Note:
            databse: private
            fields:
              a: { type: strng }
              b: "[asset]"
              c: "D\\x61te"
              d: { type: string, indexes: [queryabel] }
              e: { typ: string, type: string }
              f: { tpye: Date }
              g: 'Int'

        """

    static func diagnostics(_ text: String, in dir: String) throws -> [Diagnostic] {
        let path = dir + "/s.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try SchemaSource.load(path: path)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// `text` with each fix-it applied (columns count Unicode scalars).
    static func applying(_ fixIts: [FixIt], to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        for f in fixIts.sorted(by: { ($0.start.line, $0.start.column) > ($1.start.line, $1.start.column) }) {
            lines[f.start.line - 1].replaceSubrange((f.start.column - 1)..<(f.endColumn - 1), with: f.replacement.unicodeScalars)
        }
        return lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
    }

    @Test func fixItsAreExactAndOnlyWhereTheTextIsKnown() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ds = try Self.diagnostics(Self.text, in: dir)
        func fixIt(line: Int) -> FixIt? { ds.first { $0.location?.line == line }?.fixIt }
        let file = dir + "/s.yaml"
        #expect(fixIt(line: 4) == FixIt(replacing: 7, at: SourceLocation(file: file, line: 4, column: 5), with: "database"))
        #expect(fixIt(line: 6) == FixIt(replacing: 5, at: SourceLocation(file: file, line: 6, column: 18), with: "string"))
        #expect(fixIt(line: 7) == FixIt(replacing: 7, at: SourceLocation(file: file, line: 7, column: 11), with: "list<asset>"), "inside the quotes")
        #expect(fixIt(line: 8) == nil, "an escape: the file does not hold the text as read")
        #expect(ds.contains { $0.location?.line == 8 && $0.message.contains("did you mean 'timestamp'") })
        #expect(fixIt(line: 9) == FixIt(replacing: 9, at: SourceLocation(file: file, line: 9, column: 36), with: "queryable"))
        #expect(ds.contains { $0.location?.line == 10 } && fixIt(line: 10) == nil, "'type' is there already")
        #expect(fixIt(line: 11) == FixIt(replacing: 4, at: SourceLocation(file: file, line: 11, column: 12), with: "type"))
        #expect(fixIt(line: 12) == FixIt(replacing: 3, at: SourceLocation(file: file, line: 12, column: 11), with: "int64"))
        // Applying them leaves exactly the findings that had none (and f's `Date`, now read as a type).
        let mended = Self.applying(ds.compactMap(\.fixIt), to: Self.text)
        #expect(mended.contains("      b: \"list<asset>\"\n"))
        let left = try Self.diagnostics(mended, in: dir)
        #expect(left.map { $0.location?.line ?? 0 }.sorted() == [8, 10, 11], "\(left.map(\.message))")
        #expect(left.allSatisfy { !$0.message.contains("unknown key 'databse'") })
    }
}
