import Foundation
import Testing

/// Issue 31, point 12: `--fail-on` takes the same words in every command: `error`, `warning`
/// and `note`, and `review` where the command plans a promotion (`check`, `promote`). Through
/// the built binary, in a folder of its own (its ckschema.yaml makes CK120 a note).
@Suite struct FailOnWordsTests {
    /// A folder with ckschema.yaml (CK120 reported as a note, CK905 too), a development schema
    /// whose only finding is CK120, a production schema it adds one record type to (a safe
    /// step), and a Swift file whose only finding is CK905.
    static func project() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fail-on-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
            ckschema: 1
            schemas:
              development: development.yaml
              production: production.yaml
            check: [lint, promote]
            lint:
              severity: { CK120: note, CK905: note }

            """.write(toFile: dir + "/ckschema.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nrecordTypes:\n  Legacy:\n    fields:\n      count: number<int64>\n".write(toFile: dir + "/development.yaml", atomically: true, encoding: .utf8)
        try "ckschema: 1\nrecordTypes: {}\n".write(toFile: dir + "/production.yaml", atomically: true, encoding: .utf8)
        try "import CloudKit\nfunc f(_ db: CKDatabase) async throws {\n    _ = try await db.recordZoneChanges(inZoneWith: .default, since: nil)\n}\n"
            .write(toFile: dir + "/App.swift", atomically: true, encoding: .utf8)
        return dir
    }

    /// Each command refuses a word it does not take, listing the same words.
    @Test(arguments: [
        (["lint", "--fail-on", "sometimes"], "use error, warning or note"),
        (["scan", "--fail-on", "sometimes", "App.swift"], "use error, warning or note"),
        (["check", "--fail-on", "sometimes"], "use error, warning, review or note"),
        (["promote", "--fail-on", "sometimes"], "use error, warning, review or note"),
        (["lint", "--fail-on", "review"], "use error, warning or note"),
    ])
    func anUnknownWordIsRefusedWithTheSameList(_ arguments: [String], _ words: String) throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runCLI(arguments, cwd: dir)
        #expect(r.code == 2)
        #expect(r.stderr.contains("'\(arguments[2])' is not a severity for --fail-on; \(words)"), "\(r.stderr)")
    }

    /// `note` fails on a note in lint, scan and check; `review` in check is a warning, so a note passes it.
    @Test func noteFailsOnANoteInEveryCommand() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in [["lint", "development.yaml"], ["scan", "App.swift"], ["check"]] {
            let plain = try runCLI(command, cwd: dir)
            #expect(plain.code == 0, "\(command): \(plain.stdout)\(plain.stderr)")
            for word in ["error", "warning"] {
                #expect(try runCLI(command + ["--fail-on", word], cwd: dir).code == 0, "\(command) --fail-on \(word)")
            }
            let note = try runCLI(command + ["--fail-on", "note"], cwd: dir)
            #expect(note.code == 1, "\(command) --fail-on note: \(note.stdout)\(note.stderr)")
        }
        #expect(try runCLI(["check", "--fail-on", "review"], cwd: dir).code == 0)
        #expect(try runCLI(["scan", "App.swift", "--fail-on", "note"], cwd: dir).stdout.contains("note: recordZoneChanges(inZoneWith:) on the default zone"))
    }

    /// promote --check: `note` fails on a safe step and shows it; review, warning and error pass it.
    @Test func promoteNoteFailsOnASafeStepAndShowsIt() throws {
        let dir = try Self.project()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for word in ["error", "forbidden", "warning", "review"] {
            let r = try runCLI(["promote", "--check", "--fail-on", word], cwd: dir)
            #expect(r.code == 0, "\(word): \(r.stdout)\(r.stderr)")
            #expect(!r.stdout.contains("[CK300]"))
        }
        let r = try runCLI(["promote", "--check", "--fail-on", "note"], cwd: dir)
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("note: adds record type 'Legacy' [CK300]"), "\(r.stdout)")
    }
}
