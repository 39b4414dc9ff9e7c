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

/// Issue #11, point 8: the smaller defects, each through the built binary.
@Suite struct SmallerDefectsTests {
    /// Runs the binary as user `nobody` when the tests run as root (root reads any folder),
    /// so that a folder without permissions is really unreadable.
    static func runUnprivileged(_ arguments: [String]) throws -> CLIResult? {
        let process = Process()
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Paths.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Paths.binary)
            process.arguments = arguments
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self), code: process.terminationStatus)
    }

    @Test func anUnreadableFolderIsReportedAsUnreadable() throws {
        let dir = try makeTempDir()
        defer {
            chmod(dir + "/locked", 0o755)
            try? FileManager.default.removeItem(atPath: dir)
        }
        chmod(dir, 0o755)
        try FileManager.default.createDirectory(atPath: dir + "/locked", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Paths.root + "/Schemas/development.yaml", toPath: dir + "/locked/development.yaml")
        chmod(dir + "/locked", 0)
        guard let r = try Self.runUnprivileged(["lint", dir + "/locked"]) else {
            Issue.record("running as root without setpriv: cannot make a folder unreadable here")
            return
        }
        #expect(r.code == 2)
        #expect(r.stderr.contains("locked:1:1: error: cannot read the folder '\(dir)/locked'"), "\(r.stderr)")
        #expect(r.stderr.contains("[CK001]"))
        #expect(!r.stderr.contains("holds no .yaml schema files"))
    }

    @Test(arguments: [(#"{"x":"#, "its fields are not JSON (unexpected end of input at byte 6)"), ("[1,2]", "its fields are a list, not an object")])
    func exportingADamagedStoreNamesTheDamage(fields: String, expected: String) throws {
        let sb = try MigrationSandbox(fixtureCount: 1)
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: try sb.open(), options: .init())
        // A type without indexes, so that SQLite's own JSON functions never read the row.
        try MigrationSandbox.insert(try sb.open(), type: "Lost", name: "bad", fields: fields)
        let r = try runCLI(["records", "export", "--store", sb.store], cwd: sb.root)
        #expect(r.code == 2)
        #expect(r.stderr.contains("is damaged: record 'bad' of type 'Lost': \(expected) [CK501]"), "\(r.stderr)")
        #expect(!r.stderr.contains("ParseError("))
    }
}
