import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaCodegen

/// `ckschema generate swift` through the built binary: what it writes, its exact messages and
/// exit codes, and that a failure never leaves a half-generated folder.
@Suite struct GenerateCommandTests {
    static let everything = Paths.fixture("codegen/everything.yaml")

    @Test func writesOneFilePerRecordTypeAndTheSharedFile() throws {
        let dir = try makeTempDir("ckschema-generate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["generate", "swift", Self.everything, "-o", dir + "/Gen", "--access", "public"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout == "generated 5 files in \(dir)/Gen\n")
        #expect(r.stderr == "")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted()
        #expect(names == ["Box.swift", "CloudSchema.swift", "Companion.swift", "Legacy.swift", "Trip.swift"])
        let first = try read(dir + "/Gen/Trip.swift")
        let written = try FileManager.default.attributesOfItem(atPath: dir + "/Gen/Trip.swift")[.systemFileNumber] as? Int
        // Again over its own output: the same bytes, not written again (the same file), and a
        // record type gone takes its file along.
        let again = try runCLI(["generate", "swift", Self.everything, "-o", dir + "/Gen", "--access", "public"])
        #expect(again.code == 0)
        #expect(again.stdout == "generated 5 files in \(dir)/Gen: unchanged, nothing rewritten\n")
        #expect(try read(dir + "/Gen/Trip.swift") == first)
        #expect(try FileManager.default.attributesOfItem(atPath: dir + "/Gen/Trip.swift")[.systemFileNumber] as? Int == written)
        try Data("ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: string\n".utf8).write(to: URL(fileURLWithPath: dir + "/note.yaml"))
        let note = try runCLI(["generate", "swift", dir + "/note.yaml", "-o", dir + "/Gen"])
        #expect(note.code == 0, "\(note.stderr)")
        // Both files are new text (another schema, another header): 2 rewritten, none kept.
        #expect(note.stdout == "generated 2 files in \(dir)/Gen\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted() == ["CloudSchema.swift", "Note.swift"])
        #expect(!(try read(dir + "/Gen/Note.swift")).contains("public "))
        // The build-tool plugin's form: everything in one file.
        let single = try runCLI(["generate", "swift", Self.everything, "-o", dir + "/One", "--single-file", "--namespace", "Trails"])
        #expect(single.code == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/One") == ["Trails.swift"])
    }

    @Test(arguments: ["collision", "undeclared-zone"])
    func aSchemaItCannotExpressIsExitTwoWithNothingWritten(fixture: String) throws {
        let dir = try makeTempDir("ckschema-generate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["generate", "swift", "Tests/Fixtures/codegen/bad/\(fixture).yaml", "-o", dir + "/Gen"])
        #expect(r.code == 2)
        #expect(r.stdout == "")
        try expectMatchesFixture(r.stderr, Paths.fixture("codegen/bad/\(fixture).expected"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/Gen"))
    }

    @Test func aQueryLeftOutIsAWarningAndFailsOnlyAtFailOnWarning() throws {
        let dir = try makeTempDir("ckschema-generate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixture = "Tests/Fixtures/codegen/bad/unrunnable-query.yaml"
        let r = try runCLI(["generate", "swift", fixture, "-o", dir + "/Gen"])
        #expect(r.code == 0)
        // The fixture says OUT for the temporary folder.
        try expectMatchesFixture((r.stderr + r.stdout).replacingOccurrences(of: dir + "/Gen", with: "OUT"), Paths.fixture("codegen/bad/unrunnable-query.expected"))
        #expect(try runCLI(["generate", "swift", fixture, "-o", dir + "/Gen", "--fail-on", "warning"]).code == 1)
    }

    /// Issue 30: the Swift generated from a schema using every field type and index kind, with a
    /// declared query for each index, is what that schema's production accepts: lint finds
    /// nothing, generate leaves no query out, and `ckschema scan` of the generated folder against
    /// the schema finds nothing.
    @Test func theGeneratedCodeOfEveryKindScansClean() throws {
        let dir = try makeTempDir("ckschema-generate-scan")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fixture = Paths.fixture("codegen/every-kind.yaml")
        let lint = try runCLI(["lint", fixture])
        #expect(lint.code == 0 && lint.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n", "\(lint.stdout)")
        let r = try runCLI(["generate", "swift", fixture, "-o", dir + "/Gen", "--fail-on", "warning"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stderr == "", "no declared query left out (CK953): \(r.stderr)")
        let schema = try SchemaSource.load(path: fixture)
        let code = try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted().map { try read(dir + "/Gen/" + $0) }.joined()
        #expect(schema.queries.count == 15)
        for q in schema.queries { #expect(code.contains("static func \(q.name ?? "")("), "\(q.name ?? q.label)") }
        let scan = try runCLI(["scan", dir + "/Gen", "--schema", fixture])
        #expect(scan.code == 0, "\(scan.stdout)\(scan.stderr)")
        #expect(scan.stdout == "ckschema scan: passed: 0 errors, 0 warnings\n", "\(scan.stdout)")
    }

    @Test func aFolderHoldingOtherFilesIsRefusedAndKept() throws {
        let dir = try makeTempDir("ckschema-generate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Sources", withIntermediateDirectories: true)
        try Data("struct Mine {}\n".utf8).write(to: URL(fileURLWithPath: dir + "/Sources/Mine.swift"))
        let r = try runCLI(["generate", "swift", Self.everything, "-o", dir + "/Sources"])
        #expect(r.code == 2)
        #expect(r.stderr == "\(dir)/Sources:1:1: error: cannot generate into '\(dir)/Sources': 'Mine.swift' there was not written by ckschema generate, and the folder is replaced whole [CK007]\n\(dir)/Sources:1:1: note: generate into a folder of its own\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/Sources") == ["Mine.swift"])
        // Nothing is left beside it either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["Sources"])
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let ns = try runCLI(["generate", "swift", Self.everything, "--namespace", "class"])
        #expect(ns.code == 2)
        #expect(ns.stderr.hasPrefix("ckschema generate: error: --namespace needs a Swift type name (letters, digits and _, not a keyword), not 'class'\nusage: ckschema generate swift"))
        let access = try runCLI(["generate", "swift", Self.everything, "--access", "open"])
        #expect(access.code == 2)
        #expect(access.stderr.contains("'open' is not an access level; use public or internal"), "\(access.stderr)")
        let two = try runCLI(["generate", "swift", "a.yaml", "b.yaml"])
        #expect(two.code == 2)
        #expect(two.stderr.hasPrefix("ckschema generate: error: generate swift takes one schema source\n"))
        let missing = try runCLI(["generate"])
        #expect(missing.code == 2)
    }

    static let swiftFormat = Tool.find("swift-format")

    /// The output is what swift-format (default configuration) makes of it, byte for byte.
    @Test(.enabled(if: swiftFormat != nil, "swift-format is not on PATH"))
    func theOutputIsFormattedAsSwiftFormatWould() throws {
        let dir = try makeTempDir("ckschema-generate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (schema, access) in [(Self.everything, "public"), (Paths.root + "/Schemas/development.yaml", "internal")] {
            let r = try runCLI(["generate", "swift", schema, "-o", dir + "/Gen", "--access", access])
            #expect(r.code == 0)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/Gen").sorted().map { dir + "/Gen/" + $0 }
            for file in files {
                let formatted = try Tool.run(try #require(Self.swiftFormat), ["format", file])
                #expect(formatted.code == 0, "\(formatted.stderr)")
                #expect(formatted.stdout == (try read(file)), "\(file) is not as swift-format writes it")
            }
        }
    }
}
