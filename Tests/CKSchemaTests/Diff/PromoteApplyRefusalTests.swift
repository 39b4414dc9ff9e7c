import Foundation
import Testing
import CKSchema

/// Issue 35: a refused `promote --apply` writes no file; a plan's out-of-range number is a
/// located diagnostic; `promote --apply` honours `--format`; `migrate baseline` agrees with
/// the development schema on `Users`.
@Suite struct PromoteApplyRefusalTests {
    static func exists(_ dir: URL, _ path: String) -> Bool { FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path) }

    @Test func aRefusedApplyCreatesNoStore() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try PromoteCLI.run(["promote", "--plan", "plan.json"], in: dir).status == 0)
        let written = try String(contentsOf: dir.appendingPathComponent("plan.json"), encoding: .utf8)
        // A plan whose summary was edited: CK393, exit 1.
        try PromoteCLI.edit(dir, "plan.json", replacing: "\"summary\": {", with: "\"summary\": { \"edited\": true,")
        let edited = try PromoteCLI.run(["promote", "--apply", "plan.json"], in: dir)
        #expect(edited.status == 1, "\(edited.stdout)\(edited.stderr)")
        #expect(edited.stdout.contains("[CK393]"), "\(edited.stdout)")
        #expect(!Self.exists(dir, ".ckschema"), "a refused plan created the store's folder")
        // A bound plan, but no store whose production is the plan's: CK534, exit 2, and the
        // store this run would have created is not left behind.
        try written.write(to: dir.appendingPathComponent("plan.json"), atomically: true, encoding: .utf8)
        let drift = try PromoteCLI.run(["promote", "--apply", "plan.json"], in: dir)
        #expect(drift.status == 2, "\(drift.stdout)\(drift.stderr)")
        #expect(drift.stderr.contains("[CK534]"), "\(drift.stderr)")
        #expect(!Self.exists(dir, ".ckschema"), "a refused deploy left a store")
        // A stale plan: CK392, exit 2, nothing written.
        try PromoteCLI.edit(dir, "Schemas/development.yaml", replacing: "      elevation: double\n", with: "      elevation: double\n      heading: double\n")
        let stale = try PromoteCLI.run(["promote", "--apply", "plan.json"], in: dir)
        #expect(stale.status == 2 && stale.stderr.contains("[CK392]"), "\(stale.stderr)")
        #expect(!Self.exists(dir, ".ckschema"))
    }

    /// `"version": 1e400` and a 23-digit integer: the member, its line and column (issue 35 point 10).
    @Test(arguments: [
        ("version-1e400.json", "plan.json:3:14: error: 'plan.json' has a number out of range at \"version\": 1e400 (a plan's numbers are integers that fit in 64 bits) [CK390]\nplan.json:3:14: note: compute the plan again: `ckschema promote --plan plan.json`\n"),
        ("step-huge-integer.json", "plan.json:5:35: error: 'plan.json' has a number out of range at \"steps[0].index\": 99999999999999999999999 (a plan's numbers are integers that fit in 64 bits) [CK390]\nplan.json:5:35: note: compute the plan again: `ckschema promote --plan plan.json`\n"),
    ])
    func aPlanNumberOutOfRangeIsLocated(fixture: String, expected: String) throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Paths.fixture("plans/" + fixture), toPath: dir.appendingPathComponent("plan.json").path)
        for command in [["promote", "--verify-plan", "plan.json"], ["promote", "--apply", "plan.json"]] {
            let r = try PromoteCLI.run(command, in: dir)
            #expect(r.status == 2, "\(command): \(r.stdout)\(r.stderr)")
            #expect(r.stdout == "")
            #expect(r.stderr == expected, "\(command): \(r.stderr)")
        }
        #expect(!Self.exists(dir, ".ckschema"))
    }

    /// An example project whose store's production is `Schemas/production.yaml`, and its plan.
    static func baselined() throws -> (URL, PromotionPlan) {
        let dir = try PromoteCLI.exampleCopy()
        let baseline = try PromoteCLI.run(["migrate", "baseline", "--from", "Schemas/production.yaml"], in: dir)
        #expect(baseline.status == 0, "\(baseline.stdout)\(baseline.stderr)")
        #expect(try PromoteCLI.run(["promote", "--plan", "plan.json"], in: dir).status == 0)
        return (dir, try PromotionPlan.load(path: dir.appendingPathComponent("plan.json").path))
    }

    /// `promote --apply --format json|sarif` prints one document, not the text lines.
    @Test func applyWritesItsJSONAndSARIFDocuments() throws {
        for format in ["json", "sarif"] {
            let (dir, plan) = try Self.baselined()
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try PromoteCLI.run(["promote", "--apply", "plan.json", "--format", format], in: dir)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
            let apply: [String: Any]
            if format == "json" {
                #expect(doc["command"] as? String == "promote")
                #expect(doc["version"] as? Int == 1)
                #expect((doc["diagnostics"] as? [Any])?.isEmpty == true)
                apply = try #require(doc["apply"] as? [String: Any])
            } else {
                let run = try #require((doc["runs"] as? [[String: Any]])?.first)
                #expect((run["results"] as? [Any])?.isEmpty == true)
                apply = try #require((run["properties"] as? [String: Any])?["apply"] as? [String: Any], "\(r.stdout)")
            }
            #expect(apply["plan"] as? String == "plan.json")
            #expect(apply["store"] as? String == ".ckschema/store.sqlite")
            #expect(apply["changes"] as? [String] == plan.steps.map(\.change.description))
            #expect(apply["toHash"] as? String == plan.toHash)
            let from = try #require(apply["fromHash"] as? String)
            #expect(from.count == 64 && from != plan.toHash)
            #expect(apply["message"] as? String == "deployed the development schema to production in .ckschema/store.sqlite (\(plan.steps.count) changes, schema only; records untouched)")
            #expect(r.stderr == "")
        }
    }

    /// `migrate baseline --from` an export with no `Users` type: the baseline takes the
    /// development schema's Users, as `init --from-production` does, so `check` passes (it said CK533).
    @Test func baselineFromAnExportWithoutUsersPassesCheck() throws {
        let dir = try makeTempDir("ckschema-baseline-nousers")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let initRun = try runCLI(["init", "--from-production", Paths.fixture("init/no-users.ckdb"), "--container", "iCloud.com.example.Trips"], cwd: dir)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        try FileManager.default.removeItem(atPath: dir + "/Migrations")
        try FileManager.default.removeItem(atPath: dir + "/.ckschema")
        let r = try runCLI(["migrate", "baseline", "--from", "Schemas/production.ckdb"], cwd: dir)
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(try read(dir + "/Migrations/0001_baseline.yaml").contains("name: Users\n"))
        let check = try runCLI(["check"], cwd: dir)
        #expect(check.stdout == "ckschema check: passed (lint, promote, migrations): 0 errors, 0 warnings\n", "\(check.stdout)\(check.stderr)")
        #expect(check.code == 0)
    }
}
