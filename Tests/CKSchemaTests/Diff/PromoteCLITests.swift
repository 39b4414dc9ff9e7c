import Foundation
import Testing
import CKSchema

/// Helpers for the promote end-to-end tests, over the shared `runCLI`.
enum PromoteCLI {
    struct Run { var status: Int32; var stdout: String; var stderr: String }

    static let repoRoot = URL(fileURLWithPath: Paths.root)

    /// Runs the built binary in `folder`, as CI would (no terminal decorations).
    static func run(_ args: [String], in folder: URL) throws -> Run {
        let r = try runCLI(args, cwd: folder.path, environment: ["CI": "1"])
        return Run(status: r.code, stdout: r.stdout, stderr: r.stderr)
    }

    /// A temporary copy of the repository's example: ckschema.yaml, Schemas/ and App/ (its `code:`).
    static func exampleCopy() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ckschema-promote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repoRoot.appendingPathComponent("ckschema.yaml"), to: dir.appendingPathComponent("ckschema.yaml"))
        try FileManager.default.copyItem(at: repoRoot.appendingPathComponent("Schemas"), to: dir.appendingPathComponent("Schemas"))
        try FileManager.default.copyItem(at: repoRoot.appendingPathComponent("App"), to: dir.appendingPathComponent("App"))
        return dir
    }

    /// Replaces `old` with `new` in a file of the copy (the text must be there).
    static func edit(_ dir: URL, _ file: String, replacing old: String, with new: String) throws {
        let url = dir.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        try #require(text.contains(old), "\(file) has no '\(old)'")
        try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The 1-based line of the first line of a file that contains `text`.
    static func line(of text: String, in file: URL) throws -> Int {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }
}

@Suite(.serialized) struct PromoteCLITests {
    @Test func checkFailsOnAForbiddenChangeAndPassesWhenItIsRemoved() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = try PromoteCLI.run(["check"], in: dir)
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("error:"))

        // Delete a field production has: the gate must fail, pointing at production's line.
        let original = try String(contentsOf: dir.appendingPathComponent("Schemas/development.yaml"), encoding: .utf8)
        try PromoteCLI.edit(dir, "Schemas/development.yaml", replacing: "      endedAt: timestamp\n", with: "")
        let broken = try PromoteCLI.run(["check"], in: dir)
        #expect(broken.status == 1)
        let prodLine = try PromoteCLI.line(of: "endedAt: timestamp", in: dir.appendingPathComponent("Schemas/production.yaml"))
        #expect(broken.stdout.contains("Schemas/production.yaml:\(prodLine):7: error: field 'Trip.endedAt' is in production and cannot be deleted [CK302]\nSchemas/production.yaml:\(prodLine):7: note: keep 'Trip.endedAt' in the schema and mark it `deprecated: true` instead of deleting it\n"))

        // Put it back: the gate passes again.
        try original.write(to: dir.appendingPathComponent("Schemas/development.yaml"), atomically: true, encoding: .utf8)
        let again = try PromoteCLI.run(["check"], in: dir)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    @Test func githubFormatAnnotatesTheDevelopmentLineOfARetype() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try PromoteCLI.edit(dir, "Schemas/development.yaml", replacing: "      elevation: double\n", with: "      elevation: string\n")
        let run = try PromoteCLI.run(["promote", "--check", "--format", "github"], in: dir)
        #expect(run.status == 1)
        let line = try PromoteCLI.line(of: "elevation: string", in: dir.appendingPathComponent("Schemas/development.yaml"))
        #expect(run.stdout.contains("::error file=Schemas/development.yaml,line=\(line),col=7,title=CK303 field-type-changed::field 'Waypoint.elevation' is double in production and cannot change type to string%0Afix: keep 'elevation' as double and mark it `deprecated: true`, add a string field 'elevationV2' to the schema instead of changing the type; `ckschema migrate new` writes its addField, then add the data step that fills it to that migration: `- backfill: { recordType: Waypoint, field: elevationV2, expression: \"'' || elevation\" }`\n"), "\(run.stdout)")
        // --check reports review and forbidden steps only; without it the plan includes safe notes.
        #expect(!run.stdout.contains("::notice"))
        // Without --check it prints every step, and still exits 1 when one is an error.
        let plan = try PromoteCLI.run(["promote"], in: dir)
        #expect(plan.status == 1)
        #expect(plan.stdout.contains("note: adds record type 'Companion' [CK300]"))
    }

    @Test func failOnReviewFailsTheExampleWhoseIndexAdditionsNeedReview() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try PromoteCLI.run(["promote", "--check"], in: dir).status == 0)
        let run = try PromoteCLI.run(["promote", "--check", "--fail-on", "review"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("[CK311]"))
        #expect(try PromoteCLI.run(["promote", "--fail-on", "sometimes"], in: dir).status == 2)
    }

    @Test func aLintErrorIsReportedAndNoPlanIsWritten() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An encrypted field cannot be indexed: a lint error in the development schema.
        try PromoteCLI.edit(dir, "Schemas/development.yaml", replacing: "      elevation: double\n", with: "      elevation: { type: double, encrypted: true, indexes: [queryable] }\n")
        let run = try PromoteCLI.run(["promote", "--plan", "plan.json"], in: dir)
        #expect(run.status == 1)
        #expect(run.stdout.contains("error:"))
        // One verdict from one run: the plan's findings are reported beside the lint error.
        #expect(run.stdout.contains("[CK105]") && run.stdout.contains("[CK311]"), "\(run.stdout)")
        #expect(run.stderr.contains("did not write plan.json: the development schema has lint errors"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan.json").path))
    }

    @Test func thePlanFileIsWrittenAndVerified() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let write = try PromoteCLI.run(["promote", "--plan", "plan.json"], in: dir)
        #expect(write.status == 0)
        let plan = try PromotionPlan.load(path: dir.appendingPathComponent("plan.json").path)
        let prod = try SchemaSource.load(path: dir.appendingPathComponent("Schemas/production.yaml").path)
        #expect(plan.fromHash == prod.canonicalHash)
        #expect(plan.count(.review) == 2)
        #expect(plan.count(.forbidden) == 0)
        #expect(try PromoteCLI.run(["promote", "--verify-plan", "plan.json"], in: dir).status == 0)

        // The development schema changes: the plan is stale.
        try PromoteCLI.edit(dir, "Schemas/development.yaml", replacing: "      elevation: double\n", with: "      elevation: double\n      heading: double\n")
        let stale = try PromoteCLI.run(["promote", "--verify-plan", "plan.json"], in: dir)
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("plan.json:1:1: error: 'plan.json' is stale: the development (to) schema has changed since the plan was computed"))

        try "not json".write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let bad = try PromoteCLI.run(["promote", "--verify-plan", "bad.json"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'bad.json' is not JSON, so it is not a ckschema plan [CK390]"))

        try #"{"format": "ckschema-plan", "version": 9}"#.write(to: dir.appendingPathComponent("v9.json"), atomically: true, encoding: .utf8)
        let v9 = try PromoteCLI.run(["promote", "--verify-plan", "v9.json"], in: dir)
        #expect(v9.status == 2)
        #expect(v9.stderr.contains("'v9.json' is version 9 of the plan format; this ckschema reads version 3 [CK391]"))

        // Issue 35: a version written as a string says so, not "version 2 ...; reads version 2".
        try #"{"format": "ckschema-plan", "version": "2"}"#.write(to: dir.appendingPathComponent("v2s.json"), atomically: true, encoding: .utf8)
        let v2s = try PromoteCLI.run(["promote", "--verify-plan", "v2s.json"], in: dir)
        #expect(v2s.status == 2)
        #expect(v2s.stderr.contains(#"'v2s.json' has "version": "2", a string; this ckschema reads the number 3 ("version": 3) of the plan format [CK391]"#), "\(v2s.stderr)")
    }

    @Test func diffPrintsTheReviewTextAndHonoursExitCode() throws {
        let dir = try PromoteCLI.exampleCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try PromoteCLI.run(["diff"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.contains("record type Trip\n  + index Trip.modifiedAt queryable\n  + index Trip.modifiedAt sortable\n  ~ Trip.legacyRating deprecated\n  + Trip.tags list<string> [queryable]\n"))
        #expect(try PromoteCLI.run(["diff", "--exit-code"], in: dir).status == 1)
        let same = try PromoteCLI.run(["diff", "Schemas/production.yaml", "Schemas/production.yaml", "--exit-code"], in: dir)
        #expect(same.status == 0)
        #expect(same.stdout == "ckschema diff: no differences\n")
        // Without --exit-code an empty diff says so too (issue 32 point 8), not an empty output.
        let quiet = try PromoteCLI.run(["diff", "Schemas/production.yaml", "Schemas/production.yaml"], in: dir)
        #expect(quiet.status == 0 && quiet.stdout == "no changes\n")
        let json = try PromoteCLI.run(["diff", "--format", "json"], in: dir)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "ckschema-diff")
        #expect(try PromoteCLI.run(["diff", "--format", "sarif"], in: dir).status == 2)
    }
}
