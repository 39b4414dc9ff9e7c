import Foundation
import Testing
import CKSchema

/// Runs the built binary (the shared `runCLI`), as (exit code, stdout, stderr).
func runCKDBCommand(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
    let r = try runCLI(arguments)
    return (r.code, r.stdout, r.stderr)
}

@Suite struct CKDBCommandTests {
    /// A verbatim cktool export, written here (Tests/Fixtures/ckdb/real).
    let apple = CKDBPaths.realFixture("trailmark-export-v2.ckdb")

    func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ckdb-cli-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Import then export of a cktool export gives back the file, byte for byte, through
    /// the binary: the own verbatim exports always, the corpus's when it is there.
    @Test(arguments: allVerbatimExports)
    func importThenExportGivesBackTheExport(apple: String) throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let yaml = dir.appendingPathComponent("development.yaml").path
        let ckdb = dir.appendingPathComponent("schema.ckdb").path

        let imported = try runCKDBCommand(["import", apple, "-o", yaml])
        #expect(imported.code == 0)
        #expect(imported.stdout.isEmpty)
        // Issue 22: import -o says what it wrote, on stderr, and nothing else.
        let count = try CKDBImporter.importFile(path: apple).schema.recordTypes.count
        #expect(imported.stderr == "wrote \(yaml) (\(count) record type\(count == 1 ? "" : "s"))\n")
        let exported = try runCKDBCommand(["export", yaml, "--format", "ckdb", "-o", ckdb])
        #expect(exported.code == 0)
        #expect(exported.stderr.isEmpty)
        let original = try String(contentsOfFile: apple, encoding: .utf8)
        let roundTripped = try String(contentsOfFile: ckdb, encoding: .utf8)
        #expect(roundTripped == endingInOneLineBreak(original))
    }

    @Test func importWritesCanonicalYAMLToStandardOutput() throws {
        let result = try runCKDBCommand(["import", apple])
        #expect(result.code == 0)
        let expected = CKDBExporter.cktoolForm(try CKDBParser.read(path: apple)).canonicalYAML
        #expect(result.stdout == expected)
        #expect(result.stdout.hasPrefix("ckschema: 1\nrecordTypes:\n  Trips:\n"))
    }

    @Test func importOfABadFileExitsTwoWithEveryError() throws {
        let bad = CKDBPaths.fixtures.appendingPathComponent("bad/misspelt-type.ckdb").path
        let result = try runCKDBCommand(["import", bad])
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("\(bad):5:23: error: expected a field type after \"title\", found \"STRNG\"; did you mean STRING? [CK202]"))
        #expect(result.stderr.contains("\(bad):8:28: error:"))
    }

    @Test func importOfBinaryGarbageExitsTwo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("garbage.ckdb").path
        try Data([0x44, 0x45, 0xFF, 0x00, 0x81, 0xC3]).write(to: URL(fileURLWithPath: path))
        let result = try runCKDBCommand(["import", path])
        #expect(result.code == 2)
        #expect(result.stderr.contains("\(path):1:3: error: the file is not UTF-8 text"))
    }

    @Test func importNotesTheUsersTypeItAdds() throws {
        let result = try runCKDBCommand(["import", CKDBPaths.realFixture("minimal.ckdb")])
        #expect(result.code == 0)
        #expect(result.stdout.contains("\n  Users:\n"))
        #expect(result.stderr.contains("note: the file has no Users record type"))
        #expect(result.stderr.contains("[CK222]"))
    }

    @Test func importWithoutAFileIsAUsageError() throws {
        let result = try runCKDBCommand(["import"])
        #expect(result.code == 2)
        #expect(result.stderr.contains("no .ckdb file given"))
        #expect(result.stderr.contains("usage: ckschema import"))
        let yaml = try runCKDBCommand(["import", "Schemas/development.yaml"])
        #expect(yaml.code == 2)
        #expect(yaml.stderr.contains("is a YAML schema; import reads .ckdb files"))
    }

    @Test func exportWarnsAboutWhatCKDBCannotSay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let yaml = dir.appendingPathComponent("schema.yaml").path
        try """
        ckschema: 1
        zones:
          Notes: { database: private }
        recordTypes:
          Note:
            zone: Notes
            fields:
              body: { type: string, encrypted: true }
              owner: { type: reference, to: Users }
              title: { type: string, indexes: [queryable] }

        """.write(toFile: yaml, atomically: true, encoding: .utf8)
        let result = try runCKDBCommand(["export", yaml])
        #expect(result.code == 0)
        #expect(result.stdout.contains("        body            ENCRYPTED STRING,\n"))
        #expect(result.stdout.contains("\n    RECORD TYPE Users (\n"))
        #expect(result.stderr.contains("warning: zones cannot be expressed in .ckdb; left out: Notes [CK220]"))
        #expect(result.stderr.contains("reference targets and delete actions cannot be expressed in .ckdb"))
        #expect(result.stderr.contains("[CK222]"))
        let strict = try runCKDBCommand(["export", yaml, "--fail-on", "warning"])
        #expect(strict.code == 1)
    }

    @Test func exportOfACKDBSourceAndAnUnknownFormat() throws {
        let result = try runCKDBCommand(["export", apple, "--format", "ckdb"])
        #expect(result.code == 0)
        let original = try String(contentsOfFile: apple, encoding: .utf8)
        #expect(result.stdout.trimmingCharacters(in: .newlines) == original.trimmingCharacters(in: .newlines))
        let bad = try runCKDBCommand(["export", apple, "--format", "sql"])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("'sql' is not an export format; use ckdb, yaml or jsonschema"))
    }

    @Test func helpHasAnExample() throws {
        for command in ["import", "export"] {
            let result = try runCKDBCommand([command, "--help"])
            #expect(result.code == 0)
            #expect(result.stdout.contains("example:"))
            #expect(result.stdout.contains("usage: ckschema \(command)"))
        }
    }
}

/// A `.ckdb` file is a schema source for every command, found by extension or by content.
@Suite struct CKDBSchemaSourceTests {
    @Test func loadRoutesCKDBByExtensionAndByContent() throws {
        let apple = CKDBPaths.realFixture("trailmark-export-v2.ckdb")
        let direct = try CKDBParser.read(path: apple)
        #expect(try SchemaSource.load(path: apple) == direct)

        let dir = try makeTempDir("ckdb-source")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let noExtension = dir + "/schema"
        try FileManager.default.copyItem(atPath: CKDBPaths.realFixture("shared-coredata.ckdb"), toPath: noExtension)
        #expect(SchemaSource.isCKDB(path: noExtension))
        let loaded = try SchemaSource.load(path: noExtension)
        #expect(loaded.recordType(named: "CD_Hike")?.field(named: "CD_notes")?.isEncrypted == true)
    }

    @Test func lintTakesACKDBFile() throws {
        let good = try runCLI(["lint", CKDBPaths.realFixture("trailmark-export-v2.ckdb")])
        #expect(good.code == 0, "\(good.stderr)")
        let badPath = CKDBPaths.fixtures.appendingPathComponent("bad/unknown-role.ckdb").path
        let bad = try runCLI(["lint", badPath])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("\(badPath):8:24: error: GRANT to role \"moderater\", which is never created; did you mean moderator? [CK206]"))
    }
}
