import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaConfig

/// The streamed YAML (`SchemaEmitter.emit(_:header:chunk:)`, `SwiftDataImport.writeYAML`, what
/// `ckschema import` writes since issue 36 point 4) is the same bytes as the text built whole, and
/// `OutputFile` keeps `InputFile.write`'s promise: no half-written file.
@Suite struct StreamedEmitTests {
    /// What `emit(_:header:chunk:)` gives, joined, and how many pieces it came in.
    static func streamed(_ schema: Schema, header: String = "") -> (bytes: [UInt8], pieces: Int) {
        var bytes: [UInt8] = []
        var pieces = 0
        SchemaEmitter.emit(schema, header: header) { (piece: UnsafeRawBufferPointer) in
            bytes.append(contentsOf: piece)
            pieces += 1
        }
        return (bytes, pieces)
    }

    /// A schema of `types` record types of `fields` fields each, of every kind the emitter writes
    /// a different way: plain, indexed, encrypted, references with targets and actions, lists,
    /// descriptions, names that must be quoted; with zones, roles, grants, queries, subscriptions.
    static func varied(types: Int, fields: Int) -> Schema {
        var schema = Schema()
        schema.container = "iCloud.com.example.Streamed"
        schema.zones = [Zone(name: "Shared Zone", database: .shared)]
        schema.roles = [Role(name: "Editor")]
        let kinds: [FieldType] = [FieldType(.string), FieldType(.int64), FieldType(.double), FieldType(.timestamp), FieldType(.bytes),
                                  FieldType(.asset), FieldType(.location), FieldType(.reference), .list(.string), .list(.reference),
                                  FieldType(.number, preferred: .int64)]
        for t in 0..<types {
            var type = RecordType(name: t % 5 == 4 ? "Type \(t)" : "Type\(t)")
            if t % 3 == 0 { type.description = "type #\(t): \"quoted\"" }
            for i in 0..<fields {
                let kind = kinds[(i + t) % kinds.count]
                var f = Field(name: i % 11 == 10 ? "yes" : "f\(i)", type: kind)
                if i % 4 == 1 { f.indexes = [.queryable, .sortable] }
                if i % 6 == 2, kind == FieldType(.string) || kind == FieldType(.bytes) { f.isEncrypted = true }
                if kind.primitive == .reference, i % 2 == 0 { f.referenceTarget = "Type\((t + 1) % types)" }
                if kind == FieldType(.reference), i % 3 == 0 { f.referenceAction = .deleteSelf }
                if i % 13 == 5 { f.description = "field \(i), with: a colon" }
                if i % 17 == 3 { f.isDeprecated = true }
                if i % 19 == 7 { f.mayBeAbsent = true }
                type.fields.append(f)
            }
            if t % 2 == 0 { type.grants = [Grant(role: "Editor", permissions: [.read, .write])] }
            schema.recordTypes.append(type)
        }
        schema.queries = [DeclaredQuery(recordType: "Type0", filter: ["f0"], sort: ["f1"], name: "recent")]
        schema.subscriptions = [Subscription(id: "changes", kind: .query, database: .private, recordType: "Type0", firesOn: [.create])]
        return schema
    }

    @Test(arguments: [(1, 3), (40, 200), (300, 400)])
    func streamedEqualsWhole(types: Int, fields: Int) {
        let schema = Self.varied(types: types, fields: fields)
        let header = "# a header line\n# and a second\n"
        let (bytes, pieces) = Self.streamed(schema, header: header)
        #expect(bytes == Array(SchemaEmitter.emit(schema, header: header).utf8))
        #expect(Self.streamed(schema).bytes == Array(schema.canonicalYAML.utf8))
        // In pieces of about `Writer.chunk` bytes, never the text whole.
        #expect(pieces >= bytes.count / (SchemaEmitter.Writer.chunk + 1024))
        if bytes.count > 4 * SchemaEmitter.Writer.chunk { #expect(pieces > 4) }
    }

    @Test(arguments: ["Schemas/development.yaml", "Schemas/production.yaml", "Tests/Fixtures/fmt/messy.yaml", "Tests/Fixtures/lint/CK101-good.yaml"])
    func repositorySchemasStreamTheSame(path: String) throws {
        let schema = try SchemaSource.load(path: Paths.root + "/" + path)
        #expect(Self.streamed(schema, header: "# h\n").bytes == Array(SchemaEmitter.emit(schema, header: "# h\n").utf8))
    }

    struct Stop: Error, Equatable {}

    @Test func aThrowingChunkStopsTheStream() {
        let schema = Self.varied(types: 100, fields: 300)
        var calls = 0
        #expect(throws: Stop()) {
            try SchemaEmitter.emit(schema) { (_: UnsafeRawBufferPointer) throws(Stop) in
                calls += 1
                if calls == 2 { throw Stop() }
            }
        }
        #expect(calls == 2)
    }

    /// The SwiftData fixture apps and a model-dense folder: `writeYAML`'s pieces are `yaml`.
    @Test func swiftDataImportWritesItsYAML() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ckschema-streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let types = ["String", "Int", "Double", "Date", "Bool", "UUID", "Data", "[String]"]
        for m in 0..<20 {
            var text = "import SwiftData\n\n@Model\nfinal class Dense\(m) {\n"
            for p in 0..<300 { text += "    var p\(p): \(types[p % types.count])\(p % 3 == 0 ? "?" : " = .init()")\n" }
            text += "    init() {}\n}\n"
            try text.write(to: folder.appendingPathComponent("Dense\(m).swift"), atomically: true, encoding: .utf8)
        }
        for path in ["Journal", "Habits", "Pantry"].map({ Paths.fixture("swift/apps/" + $0) }) + [folder.path] {
            var result = try CoreDataImport.swiftData(path: path)
            var bytes: [UInt8] = []
            result.writeYAML { (piece: UnsafeRawBufferPointer) in bytes.append(contentsOf: piece) }
            let yaml = result.yaml
            #expect(!yaml.isEmpty)
            #expect(bytes == Array(yaml.utf8), "\(path)")
            #expect(yaml == (try CoreDataImport.swiftDataYAML(path: path)).yaml)
            // A text set in place of the schema's is what is written.
            result.yaml = "# replaced\n"
            bytes = []
            result.writeYAML { (piece: UnsafeRawBufferPointer) in bytes.append(contentsOf: piece) }
            #expect(bytes == Array("# replaced\n".utf8))
        }
    }

    static func tempFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ckschema-outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ file: OutputFile, _ text: String) throws(InputError) {
        var text = text
        var failure: InputError?
        text.withUTF8 { bytes in
            do throws(InputError) { try file.write(UnsafeRawBufferPointer(bytes)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    @Test func outputFileReplacesOnlyOnCommit() throws {
        let folder = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("o.yaml").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)

        // Given up (a failed import): the old file stands, no temporary file is left.
        let abandoned = try OutputFile(path: path)
        try Self.write(abandoned, "half of a new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
        abandoned.discard()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["o.yaml"])

        // Dropped without a commit, the same.
        do {
            let dropped = try OutputFile(path: path)
            try Self.write(dropped, "also half")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["o.yaml"])

        // Committed: the whole new text, in pieces.
        let file = try OutputFile(path: path)
        for piece in ["new ", "text", "\n"] { try Self.write(file, piece) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        try file.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new text\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["o.yaml"])

        // overwrite: false refuses an existing file.
        #expect(throws: InputError.self) { try OutputFile(path: path, overwrite: false) }
    }

    @Test func outputFileFailuresAreCK007AndLeaveNothing() throws {
        let folder = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A missing folder: the same words as `InputFile.write`'s.
        let missing = folder.appendingPathComponent("no/such/o.yaml").path
        var streamed = ""
        do { _ = try OutputFile(path: missing) } catch { streamed = error.diagnostics.first?.message ?? "" }
        var whole = ""
        do { try InputFile.write("x", to: missing) } catch { whole = error.diagnostics.first?.message ?? "" }
        #expect(!streamed.isEmpty)
        #expect(streamed == whole)

        // A folder where the file should be: refused at the rename, the temporary file removed.
        let sub = folder.appendingPathComponent("sub.yaml")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let file = try OutputFile(path: sub.path)
        try Self.write(file, "text\n")
        var code = ""
        do { try file.commit() } catch { code = error.diagnostics.first?.code ?? "" }
        #expect(code == "CK007")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sub.yaml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: sub.path).isEmpty)
    }

    @Test func outputFileWritesADeviceInPlace() throws {
        let file = try OutputFile(path: "/dev/null")
        try Self.write(file, "gone\n")
        try file.commit()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// The command streams its `-o` file: the same bytes as on standard output, and a file that
    /// cannot be written leaves nothing beside it.
    @Test func importCommandWritesTheSameBytes() throws {
        let folder = try Self.tempFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = "Tests/Fixtures/swift/apps/Journal"
        let out = folder.appendingPathComponent("o.yaml").path
        let toFile = try runCLI(["import", app, "-o", out])
        #expect(toFile.code == 0)
        let toStdout = try runCLI(["import", app])
        #expect(toStdout.code == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == toStdout.stdout)
        #expect(toStdout.stdout == (try CoreDataImport.swiftData(path: app)).yaml)

        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("taken.yaml").path, withIntermediateDirectories: false)
        let refused = try runCLI(["import", app, "-o", folder.appendingPathComponent("taken.yaml").path])
        #expect(refused.code == 2)
        #expect(refused.stderr.contains("[CK007]"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["o.yaml", "taken.yaml"])
    }
}
