import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaCodegen

/// The generated code, compiled: what must compile does, without a warning, in Swift 6
/// language mode, and what production could not run does not (docs/codegen.md).
///
/// CloudKit does not exist on Linux, so the code is type-checked against the stub SDK in
/// Tests/Fixtures/codegen/sdk (CloudKit.swift names the SDK version it mirrors), compiled here
/// with `swiftc -emit-module` into a temporary folder. On macOS, `CKSCHEMA_CODEGEN_REAL_SDK=1`
/// type-checks against the real SDK instead. The compiler is expensive on a shared machine, so
/// the invocations are few: two for the stub, one for the module of everything.yaml's code,
/// one for everything that must compile together, and one per compile-fail case (each tiny).
@Suite(.serialized) struct GeneratedCodeCompileTests {
    static let swiftc = Tool.find("swiftc")
    static let realSDK = ProcessInfo.processInfo.environment["CKSCHEMA_CODEGEN_REAL_SDK"] == "1"

    /// A folder holding the stub's modules and the `Everything` module (everything.yaml's
    /// generated code, public), built once for the suite.
    struct Modules: Sendable {
        var dir = ""
        var failure: String?
    }

    static let modules: Modules = {
        var m = Modules()
        do {
            m.dir = try makeTempDir("ckschema-codegen-compile")
            guard let swiftc else { m.failure = "no swiftc"; return m }
            let sdk = Paths.fixture("codegen/sdk")
            var steps: [[String]] = []
            if !realSDK {
                steps.append(["-emit-module", "-module-name", "CoreLocation", sdk + "/CoreLocation.swift",
                              "-emit-module-path", m.dir + "/CoreLocation.swiftmodule"])
                steps.append(["-emit-module", "-module-name", "CloudKit", sdk + "/CloudKit.swift",
                              "-emit-module-path", m.dir + "/CloudKit.swiftmodule"])
            }
            let gen = try runCLI(["generate", "swift", Paths.fixture("codegen/everything.yaml"), "-o", m.dir + "/everything", "--access", "public"])
            guard gen.code == 0 else { m.failure = gen.stderr; return m }
            let files = try FileManager.default.contentsOfDirectory(atPath: m.dir + "/everything").sorted().map { m.dir + "/everything/" + $0 }
            steps.append(["-emit-module", "-module-name", "Everything", "-warnings-as-errors"] + files
                         + ["-emit-module-path", m.dir + "/Everything.swiftmodule"])
            for step in steps {
                let r = try Tool.run(swiftc, ["-swift-version", "6", "-parse-as-library", "-I", m.dir] + step, cwd: m.dir)
                if r.code != 0 { m.failure = "swiftc \(step.joined(separator: " ")):\n\(r.stdout)\(r.stderr)"; return m }
            }
        } catch {
            m.failure = "\(error)"
        }
        return m
    }()

    static func typecheck(_ files: [String]) throws -> CLIResult {
        try Tool.run(try #require(swiftc), ["-swift-version", "6", "-parse-as-library", "-typecheck", "-I", modules.dir] + files, cwd: modules.dir)
    }

    /// everything.yaml's module (built with `-warnings-as-errors`), a file using every part of
    /// its API, the Trailmark example's code, every-kind.yaml's and the code of every `.ckdb`
    /// fixture, in one invocation, with no warning.
    @Test(.enabled(if: swiftc != nil, "swiftc is not on PATH"))
    func generatedCodeCompilesWithoutWarnings() throws {
        #expect(Self.modules.failure == nil, "\(Self.modules.failure ?? "")")
        let dir = Self.modules.dir
        var files = [Paths.fixture("codegen/compiles/Usage.swift")]
        let trailmark = try runCLI(["generate", "swift", Paths.root + "/Schemas/development.yaml", "-o", dir + "/trailmark", "--namespace", "Trailmark"])
        #expect(trailmark.code == 0, "\(trailmark.stderr)")
        files += try FileManager.default.contentsOfDirectory(atPath: dir + "/trailmark").sorted().map { dir + "/trailmark/" + $0 }
        // Every field type and index kind with a declared query for each index (GenerateCommandTests
        // scans the same code): a token search on a list of strings among them.
        let everyKind = try runCLI(["generate", "swift", Paths.fixture("codegen/every-kind.yaml"), "-o", dir + "/everykind", "--namespace", "EveryKind", "--single-file"])
        #expect(everyKind.code == 0 && everyKind.stderr == "", "\(everyKind.stderr)")
        files.append(dir + "/everykind/EveryKind.swift")
        let ckdb = try FileManager.default.contentsOfDirectory(atPath: Paths.fixture("ckdb/real")).filter { $0.hasSuffix(".ckdb") }.sorted()
        #expect(!ckdb.isEmpty)
        for (i, name) in ckdb.enumerated() {
            let r = try runCLI(["generate", "swift", Paths.fixture("ckdb/real/" + name), "-o", dir + "/ckdb\(i)", "--namespace", "CKDB\(i)", "--single-file"])
            #expect(r.code == 0, "\(name): \(r.stderr)")
            files.append(dir + "/ckdb\(i)/CKDB\(i).swift")
        }
        let r = try Self.typecheck(["-warnings-as-errors"] + files)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr == "")
    }

    /// The compile-fail cases: one tiny file each, whose first line names the error it must give.
    static let failCases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Paths.fixture("codegen/fail"))) ?? [])
        .filter { $0.hasSuffix(".swift") }.sorted()

    @Test func everyCompileFailCaseIsThere() {
        #expect(Self.failCases == [
            "asset-desired-key.swift", "default-zone.swift", "deprecated-write.swift", "encrypted-comparison.swift",
            "encrypted-desired-key.swift", "encrypted-sort.swift", "fourth-desired-key.swift", "no-zone-changes.swift",
            "not-around-and.swift", "or.swift", "query-all.swift", "unindexed-comparison.swift", "unsearchable-tokens.swift",
            "unsortable-sort.swift",
        ])
    }

    @Test(.enabled(if: swiftc != nil, "swiftc is not on PATH"), arguments: failCases)
    func whatProductionCouldNotRunDoesNotCompile(_ name: String) throws {
        #expect(Self.modules.failure == nil, "\(Self.modules.failure ?? "")")
        let path = Paths.fixture("codegen/fail/" + name)
        let first = try read(path).split(separator: "\n").first.map(String.init) ?? ""
        let expected = try #require(first.hasPrefix("// expect: ") ? String(first.dropFirst("// expect: ".count)) : nil)
        let r = try Self.typecheck([path])
        #expect(r.code != 0, "\(name) compiled")
        #expect(r.stderr.contains("error: ") && r.stderr.contains(expected), "\(name): \(r.stderr)")
    }
}
