import Foundation
import Testing

/// What `init` adds for the places developers work: `.ckschema/` ignored by git, and a
/// container identifier CloudKit would accept.
@Suite struct InitIntegrationTests {
    @Test func initIgnoresTheStoreOnceAndKeepsAnExistingGitignore() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("build/\n*.xcuserstate".utf8).write(to: URL(fileURLWithPath: dir + "/.gitignore"))
        let r = try runCLI(["init"], cwd: dir)
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.contains("added .ckschema/ to ./.gitignore\n"))
        #expect(try read(dir + "/.gitignore") == "build/\n*.xcuserstate\n.ckschema/\n")
        // Again (with --force): the line is there already and is not added twice.
        let again = try runCLI(["init", "--force"], cwd: dir)
        #expect(again.code == 0)
        #expect(!again.stdout.contains(".gitignore"))
        #expect(try read(dir + "/.gitignore") == "build/\n*.xcuserstate\n.ckschema/\n")
    }

    @Test func initCreatesAGitignoreWhenThereIsNone() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init", dir + "/app"]).code == 0)
        #expect(try read(dir + "/app/.gitignore") == ".ckschema/\n")
    }

    @Test(arguments: ["com.example.App", "iCloud.", "iCloud.App", "iCloud.com..App", "iCloud.com.exa mple.App", "icloud.com.example.App"])
    func initRefusesAContainerIdentifierCloudKitWouldNot(_ id: String) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(["init", "--container", id], cwd: dir)
        #expect(r.code == 2)
        #expect(r.stderr.hasPrefix("ckschema: error: '\(id)' is not a container identifier: "), "\(r.stderr)")
        #expect(r.stderr.contains("[CK804]\nckschema: note: pass --container iCloud.com.example.App"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing is written")
    }

    @Test func initAcceptsRealContainerIdentifiers() throws {
        for id in ["iCloud.com.example.Notes", "iCloud.io.github.some-one.App_2"] {
            let dir = try makeTempDir()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let r = try runCLI(["init", "--container", id], cwd: dir)
            #expect(r.code == 0, "\(id): \(r.stderr)")
            #expect(try read(dir + "/Schemas/development.yaml").contains("container: \(id)\n"))
            #expect(try runCLI(["check"], cwd: dir).code == 0)
        }
    }
}
