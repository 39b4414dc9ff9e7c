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

/// Installation: the pre-commit hooks run as pre-commit runs them, the Homebrew formula
/// uses commands that exist, and the release script makes a binary without a shared Swift
/// runtime (slow: only with CKSCHEMA_TEST_RELEASE=1).
@Suite struct InstallationTests {
    struct Hook {
        var id: String
        var entry: String
        var passFilenames: Bool
    }

    static func hooks() throws -> [Hook] {
        let doc = try YAMLReader.read(path: Paths.root + "/.pre-commit-hooks.yaml")
        let items = try #require(doc.root?.sequence)
        return items.map { node in
            let m = node.mapping ?? []
            func v(_ k: String) -> String? { m.first { $0.key.text == k }?.value.scalar }
            return Hook(id: v("id") ?? "", entry: v("entry") ?? "", passFilenames: v("pass_filenames") != "false")
        }
    }

    /// Runs a hook's entry as pre-commit does (the entry split on spaces, `ckschema` from the build).
    static func run(_ hook: Hook, in dir: String) throws -> CLIResult {
        let words = hook.entry.split(separator: " ").map(String.init)
        #expect(words.first == "ckschema")
        return try runCLI(Array(words.dropFirst()), cwd: dir)
    }

    @Test func preCommitHooksLintAndFormatTheConfiguredSchemas() throws {
        let hooks = try Self.hooks()
        #expect(hooks.map(\.id) == ["ckschema-lint", "ckschema-fmt"])
        let lint = try #require(hooks.first { $0.id == "ckschema-lint" })
        let fmt = try #require(hooks.first { $0.id == "ckschema-fmt" })
        #expect(!lint.passFilenames && !fmt.passFilenames, "the hooks work on ckschema.yaml's schemas, not single files")

        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init"], cwd: dir).code == 0)
        #expect(try Self.run(lint, in: dir).code == 0)
        #expect(try Self.run(fmt, in: dir).code == 0)

        // Unformatted and wrong: fmt rewrites the file (pre-commit then fails on the change), lint fails.
        let dev = dir + "/Schemas/development.yaml"
        let original = try read(dev)
        let messy = original.replacingOccurrences(of: "body: { type: string, encrypted: true }", with: "body: {encrypted: true,   type: string, indexes: [queryable]}")
        try Data(messy.utf8).write(to: URL(fileURLWithPath: dev))
        let failed = try Self.run(lint, in: dir)
        #expect(failed.code == 1 && failed.stdout.contains("[CK105]"), "\(failed.stdout)")
        #expect(try Self.run(fmt, in: dir).code == 0)
        let formatted = try read(dev)
        #expect(formatted != messy)
        #expect(formatted.contains("body: { type: string, encrypted: true, indexes: [queryable] }"), "\(formatted)")
    }

    @Test func theFormulaBuildsFromSourceWithLibyamlAndInstallsCompletionsAndTheManPage() throws {
        let formula = try read(Paths.root + "/Formula/ckschema.rb")
        #expect(formula.contains("depends_on \"libyaml\""))
        #expect(formula.contains("system \"swift\", \"build\", \"--disable-sandbox\", \"-c\", \"release\", \"--product\", \"ckschema\""))
        // What the formula runs exists: brew's generate_completions_from_executable runs
        // `ckschema completion bash|zsh|fish`, and the man page comes from `ckschema man`.
        for shell in ["bash", "zsh", "fish"] { #expect(try runCLI(["completion", shell]).code == 0) }
        #expect(try runCLI(["man"]).code == 0)
    }

    @Test(.enabled(if: Tool.find("ruby") != nil, "ruby is not installed; 'ruby -c' on Formula/ckschema.rb needs it"))
    func formulaIsValidRuby() throws {
        let ruby = try #require(Tool.find("ruby"))
        let r = try Tool.run(ruby, ["-c", Paths.root + "/Formula/ckschema.rb"])
        #expect(r.code == 0, "\(r.stderr)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CKSCHEMA_TEST_RELEASE"] == "1",
                   "set CKSCHEMA_TEST_RELEASE=1 to run scripts/build-release.sh (a release build, several minutes)"))
    func releaseBuildLinksTheSwiftRuntimeStatically() throws {
        let bash = try #require(Tool.find("bash"))
        let out = try makeTempDir("ckschema-dist")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try Tool.run(bash, [Paths.root + "/scripts/build-release.sh", out], cwd: Paths.root)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #if os(Linux)
        let dirs = try FileManager.default.contentsOfDirectory(atPath: out).filter { !$0.hasSuffix(".tar.gz") && !$0.hasSuffix(".sha256") }
        let bin = out + "/" + (try #require(dirs.first)) + "/ckschema"
        let ldd = try Tool.run(try #require(Tool.find("ldd")), [bin])
        #expect(!ldd.stdout.contains("libswift") && !ldd.stdout.contains("libFoundation"), "\(ldd.stdout)")
        // It runs with no Swift toolchain on the library path.
        let version = try Tool.run(bin, ["--version"], environment: ["LD_LIBRARY_PATH": ""])
        #expect(version.stdout.hasPrefix("ckschema "))
        #endif
    }
}
