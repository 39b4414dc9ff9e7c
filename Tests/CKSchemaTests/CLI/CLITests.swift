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

@Suite struct CLITests {
    static let commands = ["init", "fmt", "lint", "check"]

    @Test(arguments: commands)
    func helpHasUsageAndExample(command: String) throws {
        let result = try runCLI([command, "--help"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("usage: ckschema \(command)"))
        #expect(result.stdout.contains("example:") || result.stdout.contains("examples:"))
    }

    @Test func versionAndTopHelp() throws {
        let v = try runCLI(["--version"])
        #expect(v.code == 0)
        #expect(v.stdout == "ckschema \(CKSchemaVersion.current)\n")
        let h = try runCLI(["--help"])
        #expect(h.code == 0)
        for c in Self.commands { #expect(h.stdout.contains("  \(c) ")) }
    }

    @Test func unknownCommandSuggests() throws {
        let r = try runCLI(["lnt"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("unknown command 'lnt'; did you mean 'lint'?"))
    }

    @Test func badOptionNamesItAndPrintsUsage() throws {
        let r = try runCLI(["lint", "--fromat", "json"])
        #expect(r.code == 2)
        #expect(r.stderr == "ckschema lint: error: unknown option '--fromat'; did you mean '--format'?\nusage: \(LintCommandUsage.text)\n")
        let bad = try runCLI(["lint", "--format", "xml"])
        #expect(bad.code == 2)
        #expect(bad.stderr.contains("'xml' is not an output format"))
        let missing = try runCLI(["lint", "--format"])
        #expect(missing.stderr.contains("option '--format' needs a value"))
    }

    @Test func checkPassesOnTheRepositoryExample() throws {
        let r = try runCLI(["check"])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
    }

    @Test func checkWithoutConfigurationIsExitTwo() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 2)
        #expect(r.stderr.contains("no ckschema.yaml found"))
    }

    @Test func initWritesAProjectThatChecksClean() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["init", "--container", "iCloud.com.example.Notes"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        for f in ["ckschema.yaml", "Schemas/development.yaml", "Schemas/production.ckdb", "Schemas/ckschema.schema.json", "Migrations/.gitkeep", ".gitignore"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + f), "\(f)")
        }
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.code == 0, "\(check.stdout)\(check.stderr)")
        // A second init changes nothing and says why.
        let again = try runCLI(["init"], cwd: dir)
        #expect(again.code == 2)
        #expect(again.stderr.contains("exists already"))
        // Commands find ckschema.yaml from a subfolder.
        let sub = dir + "/Schemas"
        #expect(try runCLI(["lint"], cwd: sub).code == 0)
    }

    /// Every check needs the development schema; a malformed one is reported once, exit 2.
    @Test func checkReportsAMalformedSchemaOnce() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try runCLI(["init"], cwd: dir)
        try "ckschema: 1\nrecordTypes:\n  Note:\n    feilds: {}\n".write(toFile: dir + "/Schemas/development.yaml", atomically: true, encoding: .utf8)
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 2)
        #expect(r.stdout.components(separatedBy: "unknown key 'feilds'").count == 2, "\(r.stdout)")
        #expect(r.stdout.hasSuffix("ckschema check: failed (lint, promote): 1 error, 0 warnings\n"), "\(r.stdout)")
    }

    @Test func checkFailsOnALintErrorAndExplicitPathsOverride() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try runCLI(["init"], cwd: dir)
        let dev = dir + "/Schemas/development.yaml"
        var text = try read(dev)
        text = text.replacingOccurrences(of: "body: { type: string, encrypted: true }", with: "body: { type: string, encrypted: true, indexes: [queryable] }")
        try text.write(toFile: dev, atomically: true, encoding: .utf8)
        let r = try runCLI(["check"], cwd: dir)
        #expect(r.code == 1)
        #expect(r.stdout.contains("Schemas/development.yaml:15:55: error: field 'Note.body' is encrypted and cannot be queryable [CK105]"))
        // An explicit path overrides the configuration.
        let clean = try runCLI(["lint", Paths.root + "/Schemas/production.yaml"], cwd: dir)
        #expect(clean.code == 0)
    }

    /// A write failure has its own code, not the unreadable-file one, and leaves nothing behind.
    @Test func aFileThatCannotBeWrittenIsCK007() throws {
        let r = try runCLI(["promote", "--plan", "/nonexistent-folder/plan.json"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cannot write '/nonexistent-folder/plan.json'"), "\(r.stderr)")
        #expect(r.stderr.contains("[CK007]"))
        let json = try runCLI(["json-schema", "-o", "/nonexistent-folder/schema.json"])
        #expect(json.code == 2 && json.stderr.contains("[CK007]"))
    }
}

/// The lint usage line as the binary prints it.
enum LintCommandUsage {
    static let text = "ckschema lint [SCHEMA...] [--format text|json|github|sarif|markdown] [--fail-on error|warning|note] [--config PATH] [--model-version NAME] [--configuration NAME]"
}
