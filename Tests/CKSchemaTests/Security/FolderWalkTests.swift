import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaDiagnostics
@testable import CKSchemaScan
@testable import CKSchemaSwift

/// Issue 35 points 2 and 3: one folder walk (`FolderWalk`) for every input folder. A link back
/// up made lint, import and generate walk 2^40 paths; a folder that could not be read was
/// skipped in silence (scan said "passed", lint lost the folder's models).
@Suite struct FolderWalkTests {
    /// A SwiftData model folder: `Note` at the top, `Tag` in `Sub`, and in `Sub` two links
    /// pointing back up: `up -> ..` (the model folder again) and `out -> ../..` (the folder
    /// that holds it, outside the folder given).
    static func loopingModels() throws -> (dir: String, models: String) {
        let dir = try makeTempDir("ckschema-walk")
        chmod(dir, 0o755)
        let models = dir + "/Models"
        try FileManager.default.createDirectory(atPath: models + "/Sub", withIntermediateDirectories: true)
        try Data("import SwiftData\n\n@Model final class Note {\n    var title: String = \"\"\n    init() {}\n}\n".utf8).write(to: URL(fileURLWithPath: models + "/Note.swift"))
        try Data("import SwiftData\n\n@Model final class Tag {\n    var name: String = \"\"\n    init() {}\n}\n".utf8).write(to: URL(fileURLWithPath: models + "/Sub/Tag.swift"))
        try FileManager.default.createSymbolicLink(atPath: models + "/Sub/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: models + "/Sub/out", withDestinationPath: "../..")
        return (dir, models)
    }

    /// `text` with the temporary folder written `$DIR`, for an `.expected` fixture.
    static func placed(_ text: String, _ dir: String) -> String { text.replacingOccurrences(of: dir, with: "$DIR") }

    // Point 2, through the binary: each command ends at once, with each real folder read once
    // and the two links named (CK016), and the same models as without the links.
    @Test func linksBackUpAreSearchedOnceByEveryCommand() throws {
        let (dir, models) = try Self.loopingModels()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = Date()
        let lint = try runCLI(["lint", models])
        #expect(lint.code == 0, "\(lint.stderr)")
        try expectMatchesFixture(Self.placed(lint.stdout + lint.stderr, dir), "Tests/Fixtures/security/walk-loop-lint.expected")
        let imported = try runCLI(["import", models, "-o", "-"])
        #expect(imported.code == 0, "\(imported.stderr)")
        try expectMatchesFixture(Self.placed(imported.stdout + imported.stderr, dir), "Tests/Fixtures/security/walk-loop-import.expected")
        let generated = try runCLI(["generate", "swift", models, "-o", dir + "/Gen"])
        #expect(generated.code == 0, "\(generated.stderr)")
        #expect(Self.placed(generated.stdout + generated.stderr, dir) == "generated 3 files in $DIR/Gen\n")
        let scan = try runCLI(["scan", models, "--verbose"], cwd: dir)
        #expect(scan.code == 0, "\(scan.stderr)")
        try expectMatchesFixture(Self.placed(scan.stdout, dir), "Tests/Fixtures/security/walk-loop-scan.expected")
        // Without --verbose the scan keeps its notes to itself.
        let quiet = try runCLI(["scan", models], cwd: dir)
        #expect(!quiet.stdout.contains("CK016"), "\(quiet.stdout)")
        #expect(Date().timeIntervalSince(start) < 60)
    }

    /// The walk through the public API: the files under the path given, each real folder once.
    @Test func theWalkGivesEachFileOnceUnderThePathGiven() throws {
        let (dir, models) = try Self.loopingModels()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let walk = FolderWalk.walk(models, options: FolderWalk.Options(includeFile: { $0.hasSuffix(".swift") }))
        #expect(walk.files == [models + "/Note.swift", models + "/Sub/Tag.swift"])
        #expect(walk.errors.isEmpty)
        #expect(walk.notes.map(\.message) == [
            "not searched: '\(models)/Sub/out' leads to '\(FolderWalk.SystemReader().realPath(dir) ?? dir)', outside '\(models)'",
            "not searched again: '\(models)/Sub/up' is the folder '\(models)', already searched",
        ])
        #expect(walk.notes.allSatisfy { $0.code == "CK016" && $0.severity == .note })
        // The user naming the link itself is followed: its target is the root.
        let named = FolderWalk.walk(models + "/Sub/up", options: FolderWalk.Options(includeFile: { $0.hasSuffix(".swift") }))
        #expect(named.files == [models + "/Sub/up/Note.swift", models + "/Sub/up/Sub/Tag.swift"])
        // A real folder reached by a link and by its own path is given under its own path.
        try FileManager.default.createSymbolicLink(atPath: models + "/A", withDestinationPath: "Sub")
        let both = FolderWalk.walk(models, options: FolderWalk.Options(includeFile: { $0.hasSuffix(".swift") }))
        #expect(both.files == [models + "/Note.swift", models + "/Sub/Tag.swift"])
    }

    /// The bounds: depth and entries are errors naming the folder, not a silent cut.
    @Test func theWalkIsBounded() throws {
        let dir = try makeTempDir("ckschema-walk")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/a/b/c", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: dir + "/a/b/c/X.swift"))
        let shallow = FolderWalk.walk(dir, options: FolderWalk.Options(includeFile: { _ in true }, maxDepth: 2))
        #expect(shallow.errors.map(\.message) == ["the folder '\(dir)/a/b/c' is more than 2 folders below '\(dir)'; not searched"])
        #expect(shallow.errors.first?.code == "CK001")
        let few = FolderWalk.walk(dir, options: FolderWalk.Options(includeFile: { _ in true }, maxEntries: 2))
        #expect(few.errors.map(\.message) == ["the folder '\(dir)' holds more than 2 entries; stopped at '\(dir)/a/b'"])
        let bestEffort = FolderWalk.walk(dir, options: FolderWalk.Options(includeFile: { _ in true }, maxDepth: 2, bestEffort: true))
        #expect(bestEffort.errors.isEmpty && bestEffort.files.isEmpty)
    }

    /// A reader whose listing of one folder fails, as a mode-000 folder's does for a user who
    /// is not root: the seam that tests point 3 when the tests run as root.
    struct FailingReader: FolderWalk.Reader {
        var failing: String
        func entries(of folder: String) throws(FolderWalk.ListingFailure) -> [FolderWalk.Entry] {
            if folder == failing { throw FolderWalk.ListingFailure(reason: "Permission denied") }
            return try FolderWalk.SystemReader().entries(of: folder)
        }
        func realPath(_ path: String) -> String? { FolderWalk.SystemReader().realPath(path) }
    }

    // Point 3 through the public API (also as root): the SwiftData reader and the scan stop
    // with CK001 naming the folder, instead of reading the sources without it.
    @Test func aFolderThatCannotBeListedIsCK001NamingIt() throws {
        let (dir, models) = try Self.loopingModels()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let reader = FailingReader(failing: models + "/Sub")
        let expected = "cannot read the folder '\(models)/Sub': Permission denied"
        do {
            _ = try SwiftModelReader.load(path: models, reader: reader)
            Issue.record("read without its unreadable folder")
        } catch {
            #expect(error.diagnostics.map(\.message) == [expected])
            #expect(error.diagnostics.map(\.code) == ["CK001"])
            #expect(error.diagnostics.first?.location == CKSchema.SourceLocation(file: models + "/Sub", line: 1, column: 1))
        }
        let scan = CodeScan.run(paths: [models], schema: nil, reader: reader)
        #expect(scan.failed)
        #expect(scan.diagnostics.filter { $0.code == "CK001" }.map(\.message) == [expected])
    }

    // Point 3 through the binary: a mode-000 subfolder is exit 2 naming it, for scan, lint,
    // export, import and generate (as root the run drops to nobody, for whom mode 000 holds).
    @Test(.enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "as root, a mode-000 folder can be read; without setpriv the run cannot drop root (aFolderThatCannotBeListedIsCK001NamingIt tests the same as root)"))
    func aModeZeroSubfolderIsExitTwoNamingIt() throws {
        let dir = try makeTempDir("ckschema-walk")
        let models = dir + "/Models"
        defer {
            chmod(models + "/Locked", 0o755)
            try? FileManager.default.removeItem(atPath: dir)
        }
        chmod(dir, 0o777)
        try FileManager.default.createDirectory(atPath: models + "/Locked", withIntermediateDirectories: true)
        chmod(models, 0o777)
        try Data("import SwiftData\n\n@Model final class Note {\n    var title: String = \"\"\n    init() {}\n}\n".utf8).write(to: URL(fileURLWithPath: models + "/Note.swift"))
        try Data("import SwiftData\n\n@Model final class Tag {\n    var name: String = \"\"\n    init() {}\n}\n".utf8).write(to: URL(fileURLWithPath: models + "/Locked/Tag.swift"))
        chmod(models + "/Locked/Tag.swift", 0o644)
        chmod(models + "/Note.swift", 0o644)
        chmod(models + "/Locked", 0)
        let expected = """
            \(models)/Locked:1:1: error: cannot read the folder '\(models)/Locked': Permission denied [CK001]
            \(models)/Locked:1:1: note: make the folder readable (chmod u+rx), or move it out of the inputs

            """
        for command in [["lint", models], ["export", models, "-o", "-"], ["import", models, "-o", "-"], ["generate", "swift", models, "-o", dir + "/Gen"]] {
            let r = try #require(try SmallerDefectsTests.runUnprivileged(command))
            #expect(r.code == 2, "\(command[0]): \(r.stdout) \(r.stderr)")
            #expect(r.stderr == expected, "\(command[0])")
            #expect(r.stdout.isEmpty, "\(command[0]): \(r.stdout)")
        }
        let scan = try #require(try SmallerDefectsTests.runUnprivileged(["scan", models]))
        #expect(scan.code == 2)
        #expect(scan.stdout.contains("\(models)/Locked:1:1: error: cannot read the folder '\(models)/Locked': Permission denied [CK001]"), "\(scan.stdout)")
        #expect(!scan.stdout.contains("passed"), "\(scan.stdout)")
    }

    // The plugins cannot import FolderWalk: each holds the same `PluginInputs.swift`, which
    // follows its rules. Both copies are one file, and it ends on a looping folder with each
    // schema file once.
    @Test func thePluginsWalkByTheSameRules() throws {
        let lint = try read(Paths.root + "/Plugins/CKSchemaLint/PluginInputs.swift")
        let generate = try read(Paths.root + "/Plugins/CKSchemaGenerate/PluginInputs.swift")
        #expect(lint == generate, "the plugins' copies of PluginInputs.swift differ")
        guard let swiftc = Tool.find("swiftc") else { return }
        let dir = try makeTempDir("ckschema-walk")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schemas = dir + "/Schemas"
        try FileManager.default.createDirectory(atPath: schemas + "/Sub", withIntermediateDirectories: true)
        try Data("recordTypes: []\n".utf8).write(to: URL(fileURLWithPath: schemas + "/a.yaml"))
        try Data("recordTypes: []\n".utf8).write(to: URL(fileURLWithPath: schemas + "/Sub/b.yaml"))
        try Data("recordTypes: []\n".utf8).write(to: URL(fileURLWithPath: dir + "/outside.yaml"))
        try FileManager.default.createSymbolicLink(atPath: schemas + "/Sub/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: schemas + "/Sub/out", withDestinationPath: "../..")
        let main = dir + "/main.swift"
        try Data("import Foundation\nfor url in PluginInputs.files(under: URL(fileURLWithPath: CommandLine.arguments[1])) { print(url.path) }\n".utf8).write(to: URL(fileURLWithPath: main))
        let built = try Tool.run(swiftc, [Paths.root + "/Plugins/CKSchemaLint/PluginInputs.swift", main, "-o", dir + "/walk"])
        #expect(built.code == 0, "\(built.stderr)")
        let r = try Tool.run(dir + "/walk", [schemas])
        #expect(r.stdout == "\(schemas)/Sub/b.yaml\n\(schemas)/a.yaml\n")
    }
}
