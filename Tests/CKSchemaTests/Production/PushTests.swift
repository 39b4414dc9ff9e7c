import Foundation
import Testing
import CKSchema

/// `ckschema push` through the built binary, against the stand-in `xcrun cktool`.
@Suite struct PushTests {
    static let changes = """
        development of iCloud.com.example.Notes: 5 changes
          + record type Note
          + index Note.recordName queryable
          + Note.body string encrypted
          + Note.createdOn timestamp [queryable, sortable]
          + Note.title string [queryable, searchable, sortable]

        """

    @Test func pushGatesThenValidatesThenPullsDevelopmentThenImports() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let before = try s.snapshot()
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == Self.changes + "imported the schema into the development environment of iCloud.com.example.Notes\n", "\(r.stdout)")
        #expect(s.order() == ["validate-schema", "export-schema", "import-schema"])
        let validate = try s.arguments(1), export = try s.arguments(2), imported = try s.arguments(3)
        let head = ["--team-id", "ABCDE12345", "--container-id", "iCloud.com.example.Notes", "--environment", "development"]
        #expect(validate.count == 9 && Array(validate.prefix(7)) == ["validate-schema"] + head && validate[7] == "--file", "\(validate)")
        #expect(Array(export.prefix(7)) == ["export-schema"] + head && export[7] == "--output-file", "\(export)")
        // The file validated is the file imported, and it is gone afterwards.
        #expect(Array(imported.prefix(8)) == ["import-schema"] + head + ["--file"] && imported[8] == validate[8], "\(imported)")
        #expect(!FileManager.default.fileExists(atPath: validate[8]))
        // Nothing in the repository was written.
        #expect(try s.snapshot() == before)
    }

    @Test func theTokenReachesCktoolOnlyThroughItsEnvironment() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        // cktool echoing its token in a failure must not carry it into ckschema's report.
        try s.play("import-schema", "echo \"server said no to token $CLOUDKIT_MANAGEMENT_TOKEN\" >&2; exit 1")
        let r = try s.run(["push", "--yes", "--token-env", "MY_CK_TOKEN"], token: false, environment: ["MY_CK_TOKEN": CKToolStandIn.token])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool import-schema failed (exit 1): server said no to token <token> [CK802]"), "\(r.stderr)")
        for n in 1...3 {
            #expect(try s.environment(n).contains("CLOUDKIT_MANAGEMENT_TOKEN=\(CKToolStandIn.token)\n"), "call \(n) has the token in its environment")
            #expect(!(try s.arguments(n)).contains { $0.contains(CKToolStandIn.token) }, "call \(n): the token is in no argument")
        }
        #expect(!r.stdout.contains(CKToolStandIn.token) && !r.stderr.contains(CKToolStandIn.token))
        for (path, data) in try s.snapshot() {
            #expect(!String(decoding: data, as: UTF8.self).contains(CKToolStandIn.token), "\(path) holds the token")
        }
        // Without a token variable, cktool gets none from ckschema (it uses the keychain's).
        let keychain = try s.run(["push", "--dry-run"], token: false)
        #expect(keychain.code == 0, "\(keychain.stderr)")
        #expect(!(try s.environment(4)).contains("CLOUDKIT_MANAGEMENT_TOKEN="))
    }

    /// Issue 35 point 11: a token with a `/`, a `+` and a `=`, echoed by cktool whole,
    /// JSON-escaped (`\/`, `\u0063`), URL-encoded (upper and lower case), wrapped onto the next
    /// line, and clipped to 13 characters: every form is `<token>` in the report, and 11
    /// characters of it (shorter than a redacted prefix) are left as they are.
    @Test func theTokenIsRedactedInEveryForm() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let token = "ckmt/Secret+Key=4f1e9a0b"
        try s.play("validate-schema", #"""
            printf '%s\n' "exact: $MY_CK_TOKEN"
            printf '%s\n' '{"error":"bad token ckmt\/Secret+Key=4f1e9a0b"}'
            printf '%s\n' 'escaped: \u0063kmt\/Secret\u002BKey\u003d4f1e9a0b.'
            printf '%s\n' 'GET /v1?token=ckmt%2FSecret%2BKey%3D4f1e9a0b&x=1 or ckmt%2fSecret%2bKey%3d4f1e9a0b'
            printf '%s\n' 'wrapped: ckmt/Sec'
            printf '%s\n' '  ret+Key=4f1e9a0b done'
            printf '%s\n' 'clipped: ckmt/Secret+K...'
            printf '%s\n' 'short: ckmt/Secret'
            exit 1
            """#)
        let r = try s.run(["push", "--dry-run", "--token-env", "MY_CK_TOKEN"], token: false, environment: ["MY_CK_TOKEN": token])
        #expect(r.code == 2, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "")
        let said = #"exact: <token> / {"error":"bad token <token>"} / escaped: <token>. / GET /v1?token=<token>&x=1 or <token> / wrapped: <token> /   <token> done / clipped: <token>... / short: ckmt/Secret"#
        #expect(r.stderr.hasPrefix("ckschema: error: cktool validate-schema failed (exit 1): \(said) [CK802]\n"), "\(r.stderr)")
        for form in [token, #"ckmt\/Secret"#, "ckmt%2FSecret", "ckmt%2fSecret", "ret+Key=4f1e9a0b", String(token.prefix(12))] {
            #expect(!r.stderr.contains(form), "\(form): \(r.stderr)")
        }
    }

    /// Issue 35 point 11: an export that holds the token (whole, or JSON-escaped) is refused
    /// by `pull` and by `verify --update`, naming the lines and quoting none, and nothing is
    /// written: the committed export keeps its bytes and no temporary file is left.
    @Test func anExportHoldingTheTokenIsNeverWritten() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let deployed = try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout
        for (what, line) in [("whole", "    // \(CKToolStandIn.token)"), ("json", #"    // {"token":"\u0063kmt-SECRET-4f1e9a"}"#), ("prefix", "    // ckmt-SECRET-4f…")] {
            var lines = deployed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.insert(line, at: 2)
            try s.live("production", lines.joined(separator: "\n"))
            let before = try s.snapshot()
            let pull = try s.run(["pull"])
            #expect(pull.code == 2 && pull.stdout == "", "\(what): \(pull.stdout)\(pull.stderr)")
            #expect(pull.stderr == "ckschema: error: cktool export-schema wrote the management token into the export (line 3); it was deleted and nothing was written [CK802]\n"
                    + "ckschema: note: run 'xcrun cktool export-schema' by hand and check the file it writes: no cktool should write its token there\n", "\(what): \(pull.stderr)")
            let verify = try s.run(["verify", "--update"])
            #expect(verify.code == 2 && verify.stderr == pull.stderr, "\(what): \(verify.stderr)")
            #expect(try s.snapshot() == before, "\(what): nothing was written, no temporary file left")
        }
    }

    /// Issue 35 point 6: `push` and `verify` honour `--format json` and `sarif` on success:
    /// one document on standard output, exactly, with what they did (docs/output.md).
    @Test func pushAndVerifyWriteOneJSONOrSARIFDocumentOnSuccess() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let text = try s.run(["push", "--dry-run"])
        #expect(text.code == 0, "\(text.stderr)")
        let bytes = try #require(text.stdout.firstMatch(of: /\((\d+) bytes of \.ckdb\)/)).1
        let notes = try #require(text.stderr.firstMatch(of: /leaves out (\d+) thing/)).1
        let message = "push --dry-run: CloudKit validated the schema (\(bytes) bytes of .ckdb); nothing was imported"
        let push = """
              "push": {
                "environment": "development",
                "container": "iCloud.com.example.Notes",
                "stage": "validated",
                "bytes": \(bytes),
                "changes": [],
                "exportNotes": \(notes),
                "message": "\(message)"
              }
            """
        let json = try s.run(["push", "--dry-run", "--format", "json"])
        #expect(json.code == 0 && json.stderr == text.stderr, "\(json.stderr)")
        #expect(json.stdout == """
            {
              "version": 1,
              "tool": {
                "name": "ckschema",
                "version": "\(CKSchemaVersion.current)"
              },
              "command": "push",
            \(push),
              "diagnostics": [],
              "summary": {
                "errors": 0,
                "warnings": 0,
                "notes": 0
              }
            }

            """, "\(json.stdout)")
        let sarif = try s.run(["push", "--dry-run", "--format", "sarif"])
        #expect(sarif.code == 0)
        #expect(sarif.stdout == """
            {
              "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
              "version": "2.1.0",
              "runs": [
                {
                  "tool": {
                    "driver": {
                      "name": "ckschema",
                      "version": "\(CKSchemaVersion.current)",
                      "rules": []
                    }
                  },
                  "columnKind": "unicodeCodePoints",
                  "results": [],
                  "properties": {
            \(push.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
                  }
                }
              ]
            }

            """, "\(sarif.stdout)")

        // verify, after the deploy, with --update: the file it wrote is in the document.
        #expect(try s.run(["promote", "--plan", "plan.json"]).code == 0)
        try s.live("production", try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout)
        let verify = try s.run(["verify", "--plan", "plan.json", "--update", "--format", "json"])
        #expect(verify.code == 0 && verify.stderr == "", "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout == """
            {
              "version": 1,
              "tool": {
                "name": "ckschema",
                "version": "\(CKSchemaVersion.current)"
              },
              "command": "verify",
              "verify": {
                "environment": "production",
                "container": "iCloud.com.example.Notes",
                "checked": 5,
                "unchecked": 2,
                "updated": "Schemas/production.ckdb",
                "message": "the production environment of iCloud.com.example.Notes has every planned change (5 checked, 2 not visible through cktool)"
              },
              "diagnostics": [],
              "summary": {
                "errors": 0,
                "warnings": 0,
                "notes": 0
              }
            }

            """, "\(verify.stdout)")
        let verifySARIF = try s.run(["verify", "--format", "sarif"])
        #expect(verifySARIF.code == 0, "\(verifySARIF.stdout)\(verifySARIF.stderr)")
        #expect(verifySARIF.stdout.hasPrefix("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"), "\(verifySARIF.stdout)")
        #expect(verifySARIF.stdout.hasSuffix("""
                  "results": [],
                  "properties": {
                    "verify": {
                      "environment": "production",
                      "container": "iCloud.com.example.Notes",
                      "checked": 0,
                      "unchecked": 0,
                      "updated": null,
                      "message": "the production environment of iCloud.com.example.Notes has every planned change (0 checked)"
                    }
                  }
                }
              ]
            }

            """), "\(verifySARIF.stdout)")
    }

    /// Issue 35 point 6, on failure: a refused import and a missing planned change are one
    /// JSON document each on standard output (the changes push showed go to standard error),
    /// and an input error with --format json is the report too (`migrate status` printed text).
    @Test func pushVerifyAndInputErrorsWriteOneJSONDocumentOnFailure() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let line = try Self.exportLine(of: "title", in: s)
        try s.play("import-schema", "echo 'Schema validation failed: at line \(line), column 9.' >&2; exit 1")
        let r = try s.run(["push", "--yes", "--format", "json"])
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.hasPrefix(Self.changes), "\(r.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let push = try #require(doc["push"] as? [String: Any])
        #expect(push["stage"] as? String == "serverRefused")
        #expect(push["changes"] as? [String] == Self.changes.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(push["message"] is NSNull)
        #expect((doc["diagnostics"] as? [[String: Any]])?.map { $0["code"] as? String } == ["CK810"])
        #expect(r.stdout.hasSuffix("  \"summary\": {\n    \"errors\": 1,\n    \"warnings\": 0,\n    \"notes\": 0\n  }\n}\n"), "\(r.stdout)")

        // verify: production lacks everything; the CK811 errors and what was checked.
        let verify = try s.run(["verify", "--format", "json"])
        #expect(verify.code == 1 && verify.stderr == "", "\(verify.stderr)")
        let v = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any], "\(verify.stdout)")
        #expect((v["verify"] as? [String: Any])?["updated"] is NSNull)
        #expect((v["diagnostics"] as? [[String: Any]])?.allSatisfy { $0["code"] as? String == "CK811" } == true)

        // An input error: a migration that does not parse.
        try s.write("Migrations/0001_bad.yaml", "steps: [\n")
        let status = try s.run(["migrate", "status", "--format", "json"])
        #expect(status.code == 2, "\(status.stdout)\(status.stderr)")
        let text = try s.run(["migrate", "status"])
        #expect(text.code == 2 && text.stdout == "" && status.stderr == text.stderr, "\(text.stdout)\(status.stderr)")
        let e = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stdout)")
        #expect(e["command"] as? String == "migrate status" && e["version"] as? Int == 1)
        let first = try #require((e["diagnostics"] as? [[String: Any]])?.first)
        #expect(first["file"] as? String == "Migrations/0001_bad.yaml" && first["severity"] as? String == "error", "\(status.stdout)")
        #expect(status.stderr.hasPrefix("Migrations/0001_bad.yaml:"), "\(status.stderr)")
        let sarif = try s.run(["migrate", "status", "--format", "sarif"])
        #expect(sarif.code == 2 && sarif.stdout.contains("\"ruleId\": \"\(first["code"] as? String ?? "")\""), "\(sarif.stdout)")
        // Text and github keep standard output empty.
        #expect(try s.run(["migrate", "status", "--format", "github"]).stdout == "")
    }

    @Test func dryRunStopsAfterTheServersValidation() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let r = try s.run(["push", "--dry-run"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("push --dry-run: CloudKit validated the schema ("), "\(r.stdout)")
        #expect(r.stdout.hasSuffix(" bytes of .ckdb); nothing was imported\n"))
        #expect(s.order() == ["validate-schema"])
    }

    @Test func offlineRunsEveryLocalStepAndNoCktoolEvenWithoutXcrun() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let r = try s.run(["push", "--dry-run", "--offline"], path: "/usr/bin:/bin")
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("push --offline: lint, the production gate and the .ckdb export ("), "\(r.stdout)")
        #expect(s.order() == [])
        let noDryRun = try s.run(["push", "--offline", "--yes"])
        #expect(noDryRun.code == 2 && noDryRun.stderr.contains("pass --dry-run --offline"), "\(noDryRun.stderr)")
    }

    @Test func aGateRefusalMakesNoCktoolCall() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        // Production holds Draft, which development no longer has: production refuses the deletion.
        try s.write("Schemas/production.ckdb", "DEFINE SCHEMA\n\n    RECORD TYPE Draft (\n        text STRING\n    );\n")
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Draft") && r.stdout.contains("ckschema push: failed (lint, promote): 1 error"), "\(r.stdout)")
        #expect(s.order() == [], "no cktool call after a gate refusal")
        // A lint error stops it the same way.
        try s.write("Schemas/production.ckdb", "DEFINE SCHEMA\n")
        let dev = try read(s.repo + "/Schemas/development.yaml")
        try s.write("Schemas/development.yaml", dev.replacingOccurrences(of: "encrypted: true }", with: "encrypted: true, indexes: [sortable] }"))
        let lint = try s.run(["push", "--dry-run"])
        #expect(lint.code == 1 && lint.stdout.contains("[CK105]"), "\(lint.stdout)")
        #expect(s.order() == [])
    }

    /// The line of the export `ckschema export --format ckdb` writes for `field`.
    static func exportLine(of field: String, in s: CKToolStandIn) throws -> Int {
        let text = try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix(field + " ") }) + 1
    }

    @Test func aValidationFailurePointsAtTheYAMLLineThatProducedTheCKDBLine() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let line = try Self.exportLine(of: "body", in: s)
        let message = "❌ Schema validation failed: Encountered \" <IDENTIFIER> \"BADTYPE \"\" at line \(line), column 25. Was expecting one of: \"STRING\" ..."
        try s.play("validate-schema", "echo '\(message)'; exit 1")
        let before = try s.snapshot()
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 1, "\(r.stdout)\(r.stderr)")
        // body is line 15, column 7 of the YAML that init writes.
        #expect(r.stdout.hasPrefix("Schemas/development.yaml:15:7: error: CloudKit refused the schema (cktool validate-schema, line \(line) column 25 of the .ckdb export): \(message) [CK810]\n"), "\(r.stdout)")
        #expect(s.order() == ["validate-schema"], "nothing is imported after a refusal")
        #expect(try s.snapshot() == before)
    }

    @Test func theImportsOwnRefusalIsLocatedToo() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let line = try Self.exportLine(of: "title", in: s)
        try s.play("import-schema", "echo 'Schema validation failed: at line \(line), column 9.' >&2; exit 1")
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 1)
        #expect(r.stdout.hasPrefix(Self.changes + "Schemas/development.yaml:14:7: error: CloudKit refused the schema (cktool import-schema, line \(line) column 9"), "\(r.stdout)")
    }

    @Test func authenticationFailureAndProductionRefusalAreCK802WithTheirFix() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.play("validate-schema", "echo 'Error: Authentication failed: invalid management token.' >&2; exit 1")
        let auth = try s.run(["push", "--dry-run"])
        #expect(auth.code == 2)
        #expect(auth.stderr.contains("cktool validate-schema failed (exit 1): Error: Authentication failed: invalid management token. [CK802]"), "\(auth.stderr)")
        #expect(auth.stderr.contains("xcrun cktool save-token --type management") && auth.stderr.contains("--token-env"))

        try s.play("validate-schema", "echo \"Error: endpoint not applicable in the environment 'production'\" >&2; exit 1")
        let prod = try s.run(["push", "--dry-run"])
        #expect(prod.code == 2)
        #expect(prod.stderr.contains("endpoint not applicable in the environment 'production' [CK802]"), "\(prod.stderr)")
        #expect(prod.stderr.contains("only through CloudKit Console's 'Deploy Schema Changes'"))
    }

    @Test func garbageFromCktoolIsEscapedAndNamesTheCommand() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.play("validate-schema", "printf '\\033[31mboom\\n::error::forged\\001'; exit 7")
        let r = try s.run(["push", "--dry-run"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool validate-schema failed (exit 7): \\u{1B}[31mboom / :\\u{3A}error:\\u{3A}forged\\u{1}"), "\(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}") && !r.stderr.contains("\n::"))
    }

    @Test func aHangingCktoolIsStoppedAtTheTimeout() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.play("validate-schema", "sleep 60; exit 0")
        let r = try s.run(["push", "--dry-run", "--timeout", "1"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool validate-schema did not finish within 1 s and was stopped [CK802]"), "\(r.stderr)")
        #expect(r.stderr.contains("--timeout"))
    }

    @Test func hugeOutputFromCktoolIsCutOff() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.play("import-schema", "i=0; while [ $i -lt 40000 ]; do echo 'garbage garbage garbage garbage garbage garbage garbage garbage'; i=$((i+1)); done; exit 1")
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 2)
        #expect(r.stderr.contains("cktool import-schema wrote more than 1.0 MB of messages and was stopped [CK802]"), "\(r.stderr.prefix(2000))")
        #expect(r.stderr.utf8.count < 4000, "the message is one bounded line, not cktool's output")
        // A long failure that stays under the cap is quoted to 4,000 characters at most.
        try s.play("import-schema", "i=0; while [ $i -lt 2000 ]; do printf 'xxxxxxxxxx'; i=$((i+1)); done; exit 1")
        let long = try s.run(["push", "--yes"])
        #expect(long.code == 2 && long.stderr.contains("cktool import-schema failed (exit 1): xxxx"))
        #expect(long.stderr.utf8.count < 6000, "\(long.stderr.utf8.count)")
    }

    @Test func withoutATerminalPushNeedsYesAndAsksNothingOfCktool() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        let r = try s.run(["push"])
        #expect(r.code == 2)
        #expect(r.stderr.hasPrefix("ckschema push: error: push imports into development, and asks first; with no terminal (CI) pass --yes"), "\(r.stderr)")
        #expect(s.order() == [])
    }

    @Test func developmentThatAlreadyHasTheSchemaIsNotImportedAgain() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        try s.live("development", try runCLI(["export", "--format", "ckdb"], cwd: s.repo).stdout)
        let r = try s.run(["push", "--yes"])
        #expect(r.code == 0, "\(r.stderr)")
        #expect(r.stdout == "the development environment of iCloud.com.example.Notes already has this schema; nothing was imported\n")
        #expect(s.order() == ["validate-schema", "export-schema"])
    }

    @Test func withoutXcrunEachCommandSaysSoInOneLine() throws {
        let s = try CKToolStandIn()
        defer { s.cleanup() }
        for args in [["push", "--dry-run"], ["reset", "--env", "development", "--yes"], ["verify", "--env", "production"], ["pull"]] {
            let r = try s.run(args, path: "/usr/bin:/bin")
            #expect(r.code == 2, "\(args)")
            let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("ckschema: error: cktool is not available: 'xcrun' is not on PATH") && first.hasSuffix("[CK801]"), "\(args): \(r.stderr)")
        }
    }
}
