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

/// The composite action (`action.yml`): its shell steps, read from the file and run as a
/// runner would, with a stand-in GitHub environment (GITHUB_ACTION_PATH, GITHUB_STEP_SUMMARY,
/// GITHUB_OUTPUT, a HOME whose ~/.ckschema/bin plays the restored cache).
@Suite struct GitHubActionTests {
    struct Step {
        var name: String
        var id: String?
        var run: String?
        var uses: String?
        var condition: String?
        var workingDirectory: String?
        var env: [String: String]
    }

    static func steps() throws -> [Step] {
        let doc = try YAMLReader.read(path: Paths.root + "/action.yml")
        let root = try #require(doc.root?.mapping)
        let runs = try #require(root.first { $0.key.text == "runs" }?.value.mapping)
        #expect(runs.first { $0.key.text == "using" }?.value.text == "composite")
        let steps = try #require(runs.first { $0.key.text == "steps" }?.value.sequence)
        return steps.map { node in
            let m = node.mapping ?? []
            func v(_ k: String) -> String? { m.first { $0.key.text == k }?.value.scalar }
            var env: [String: String] = [:]
            for p in m.first(where: { $0.key.text == "env" })?.value.mapping ?? [] { env[p.key.text] = p.value.text }
            return Step(name: v("name") ?? "", id: v("id"), run: v("run"), uses: v("uses"), condition: v("if"),
                        workingDirectory: v("working-directory"), env: env)
        }
    }

    /// `${{ inputs.x }}` replaced with the input's value (or its default from action.yml), and
    /// `${{ github.x }}` with the stand-in context's (empty when the test gives none).
    static func expand(_ s: String, inputs: [String: String], github: [String: String] = [:]) -> String {
        var out = s
        for (k, v) in inputs { out = out.replacingOccurrences(of: "${{ inputs.\(k) }}", with: v) }
        for (k, v) in github { out = out.replacingOccurrences(of: "${{ github.\(k) }}", with: v) }
        while let r = out.range(of: "${{ github."), let end = out[r.upperBound...].range(of: " }}") {
            out.replaceSubrange(r.lowerBound..<end.upperBound, with: "")
        }
        return out
    }

    struct Run {
        var code: Int32
        var log: String
        var summary: String
        var outputs: String
    }

    /// Runs every step of action.yml as the runner would, the cache step as a hit.
    static func runAction(args: String?, workingDirectory: String = ".", cwd: String = Paths.root, inputs given: [String: String] = [:],
                          github: [String: String] = [:], environment: [String: String] = [:]) throws -> Run {
        let bash = try #require(Tool.find("bash"))
        let dir = try makeTempDir("ckschema-action")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let home = dir + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let summary = dir + "/summary.md", outputs = dir + "/outputs"
        _ = FileManager.default.createFile(atPath: summary, contents: nil)
        _ = FileManager.default.createFile(atPath: outputs, contents: nil)
        var inputs = ["args": args ?? "check --format github", "working-directory": workingDirectory, "version": "", "mode": "check", "plan": ""]
        for (k, v) in given { inputs[k] = v }
        var log = ""
        var cacheHit = false
        for step in try steps() {
            if step.uses?.hasPrefix("actions/cache@") == true {
                // The stand-in cache: the binary these tests run, where the action restores it.
                // A link, not a copy: a copy holds the file open for writing, and a process
                // another test forks meanwhile inherits that descriptor, so running the copy
                // could fail with "Text file busy" (ETXTBSY, exit 126).
                try FileManager.default.createDirectory(atPath: home + "/.ckschema/bin", withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: home + "/.ckschema/bin/ckschema", withDestinationPath: Paths.binary)
                cacheHit = true
                continue
            }
            if let c = step.condition {
                #expect(c == "steps.cache.outputs.cache-hit != 'true'", "a condition this test does not know: \(c)")
                if cacheHit { continue }
            }
            let script = try #require(step.run, "step '\(step.name)' has neither run nor a known uses")
            #expect(!script.contains("${{"), "expressions in a run line are spliced into the shell; pass them through env: \(script)")
            var env = ["GITHUB_ACTION_PATH": Paths.root, "GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": outputs,
                       "HOME": home, "RUNNER_OS": "Linux", "RUNNER_TEMP": dir, "CI": "true", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            for (k, v) in environment { env[k] = v }
            for (k, v) in step.env { env[k] = expand(v, inputs: inputs, github: github) }
            let wd = step.workingDirectory.map { expand($0, inputs: inputs) } ?? "."
            let r = try Tool.run(bash, ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                 cwd: (cwd as NSString).appendingPathComponent(wd), environment: env, replacingEnvironment: true)
            log += r.stdout + r.stderr
            if r.code != 0 { return Run(code: r.code, log: log, summary: try read(summary), outputs: try read(outputs)) }
        }
        return Run(code: 0, log: log, summary: try read(summary), outputs: try read(outputs))
    }

    @Test func theDefaultRunAnnotatesAndWritesTheJobSummary() throws {
        let r = try Self.runAction(args: nil)
        #expect(r.code == 0, "\(r.log)")
        // The annotations and the summary are those of the same check run directly.
        let direct = try runCLI(["check", "--format", "github"])
        #expect(!direct.stdout.isEmpty && r.log.contains(direct.stdout), "\(r.log)")
        let markdown = try runCLI(["check", "--format", "markdown"])
        #expect(r.summary == markdown.stdout + "\n", "\(r.summary)")
        #expect(r.summary.hasPrefix("**ckschema check**: "))
        #expect(r.outputs == "exit-code=0\n")
    }

    @Test func findingsFailTheJobWithExitOne() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try runCLI(["init", dir + "/app"]).code == 0)
        let dev = dir + "/app/Schemas/development.yaml"
        try Data(try read(dev).replacingOccurrences(of: "encrypted: true }", with: "encrypted: true, indexes: [sortable] }").utf8)
            .write(to: URL(fileURLWithPath: dev))
        let r = try Self.runAction(args: "lint --format github", workingDirectory: "app", cwd: dir)
        #expect(r.code == 1)
        #expect(r.log.contains("::error file=Schemas/development.yaml,line=15,col=55,title=CK105"), "\(r.log)")
        #expect(r.summary.contains("**ckschema lint**: failed: 1 error") && r.summary.contains("| `Schemas/development.yaml:15:55` | error | `CK105` |"), "\(r.summary)")
        #expect(r.outputs == "exit-code=1\n")
    }

    @Test func aToolErrorFailsTheJobWithExitTwo() throws {
        let r = try Self.runAction(args: "lint Schemas/missing.yaml")
        #expect(r.code == 2)
        #expect(r.log.contains("no such schema file or folder 'Schemas/missing.yaml'"), "\(r.log)")
        #expect(r.outputs == "exit-code=2\n")
    }

    @Test func commandsThatActAreNotRunTwiceForTheSummary() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Self.runAction(args: "promote --check --plan \(dir)/plan.json --format github")
        #expect(r.code == 0, "\(r.log)")
        #expect(FileManager.default.fileExists(atPath: dir + "/plan.json"))
        #expect(r.summary == (try runCLI(["promote", "--check", "--format", "markdown"])).stdout + "\n", "\(r.summary)")
        let fmt = try Self.runAction(args: "fmt --check")
        #expect(fmt.code == 0 && fmt.summary.isEmpty, "fmt has no markdown report: \(fmt.summary)")
    }

    /// The stand-in `xcrun` first on PATH and the token in the job's environment, as a
    /// workflow gives it from a secret.
    static func cktoolEnvironment(_ s: CKToolStandIn) -> [String: String] {
        ["PATH": s.bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
         "CLOUDKIT_MANAGEMENT_TOKEN": CKToolStandIn.token, "CKSCHEMA_CKTOOL": ""]
    }

    @Test func stagePushesOnTheDefaultBranchAndPutsTheConsoleStepsInTheSummary() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let r = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "stage", "plan": "plan.json"],
                                   github: ["ref_name": "main", "event.repository.default_branch": "main"], environment: Self.cktoolEnvironment(s))
        #expect(r.code == 0, "\(r.log)")
        #expect(s.order() == ["validate-schema", "export-schema", "import-schema"])
        #expect(r.log.contains("imported the schema into the development environment of iCloud.com.example.Notes"), "\(r.log)")
        #expect(r.summary.hasPrefix("**ckschema push**: exit 0\n"), "\(r.summary)")
        #expect(r.summary.contains("### Deploy in CloudKit Console") && r.summary.contains("| Fields | `Note.body`: new field, `String`, Encrypted |"), "\(r.summary)")
        #expect(r.summary.contains("`ckschema verify --env production --plan plan.json`"))
        #expect(FileManager.default.fileExists(atPath: s.repo + "/plan.json"), "stage writes the plan verify checks")
        #expect(r.outputs == "exit-code=0\n")
        #expect(!r.log.contains(CKToolStandIn.token) && !r.summary.contains(CKToolStandIn.token))

        // Any other branch: CloudKit validates, nothing is imported.
        let branch = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "stage"],
                                        github: ["ref_name": "feature", "event.repository.default_branch": "main"], environment: Self.cktoolEnvironment(s))
        #expect(branch.code == 0, "\(branch.log)")
        #expect(branch.log.contains("'feature' is not the default branch 'main': push --dry-run only"))
        #expect(Array(s.order().dropFirst(3)) == ["validate-schema"])
    }

    @Test func stageFailsTheJobWhenTheGateRefusesAndCallsNoCktool() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.write("Schemas/production.ckdb", "DEFINE SCHEMA\n\n    RECORD TYPE Draft (\n        text STRING\n    );\n")
        let r = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "stage"],
                                   github: ["ref_name": "main", "event.repository.default_branch": "main"], environment: Self.cktoolEnvironment(s))
        #expect(r.code == 1, "\(r.log)")
        #expect(r.log.contains("::error") && r.log.contains("Draft"), "\(r.log)")
        #expect(s.order() == [])
        #expect(r.summary.hasPrefix("**ckschema push**: exit 1\n") && !r.summary.contains("Deploy in CloudKit Console"), "\(r.summary)")
        #expect(r.outputs == "exit-code=1\n")
    }

    @Test func verifyFailsTheJobWhenProductionLacksAPlannedField() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let deployed = try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout
        try s.live("production", deployed)
        let ok = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "verify"], environment: Self.cktoolEnvironment(s))
        #expect(ok.code == 0, "\(ok.log)")
        #expect(ok.summary.hasPrefix("**ckschema verify**: production has every planned change\n"), "\(ok.summary)")
        #expect(s.order() == ["export-schema"])

        try s.live("production", deployed.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("createdOn ") }.joined(separator: "\n"))
        let missing = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "verify"], environment: Self.cktoolEnvironment(s))
        #expect(missing.code == 1, "\(missing.log)")
        #expect(missing.log.contains("::error file=Schemas/development.yaml,line=16,col=7,title=CK811"), "\(missing.log)")
        #expect(missing.summary.hasPrefix("**ckschema verify**: exit 1\n"))
        #expect(missing.outputs == "exit-code=1\n")

        let bad = try Self.runAction(args: nil, workingDirectory: "repo", cwd: s.root, inputs: ["mode": "deploy"])
        #expect(bad.code == 2 && bad.log.contains("mode must be check, stage or verify"))
    }

    @Test func theBuildStepsAreValidShell() throws {
        let bash = try #require(Tool.find("bash"))
        for script in ["install-deps.sh", "build.sh", "run.sh"] {
            let r = try Tool.run(bash, ["-n", Paths.root + "/scripts/action/" + script])
            #expect(r.code == 0, "\(script): \(r.stderr)")
        }
        let names = try Self.steps().map(\.name)
        #expect(names == ["Install libyaml and SQLite", "Restore ckschema", "Build ckschema", "Run ckschema"])
    }
}
