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

/// `--format markdown` for check, lint, promote, diff and validate: a summary line and a table.
@Suite struct MarkdownFormatTests {
    @Test func lintPrintsASummaryLineAndATable() throws {
        let r = try runCLI(["lint", "Tests/Fixtures/lint/CK105-bad.yaml", "--format", "markdown"])
        #expect(r.code == 1)
        #expect(r.stdout == """
            **ckschema lint**: failed: 2 errors

            | Location | Severity | Code | Message |
            |---|---|---|---|
            | `Tests/Fixtures/lint/CK105-bad.yaml:5:54` | error | `CK105` | field 'Payload.body' is encrypted and cannot be queryable (fix: remove the index, or store a plaintext copy in another field to query it) |
            | `Tests/Fixtures/lint/CK105-bad.yaml:6:57` | error | `CK105` | field 'Payload.secret' is encrypted and cannot be queryable, sortable (fix: remove the index, or store a plaintext copy in another field to query it) |

            """)
        let clean = try runCLI(["lint", "Tests/Fixtures/lint/CK105-good.yaml", "--format", "markdown"])
        #expect(clean.code == 0 && clean.stdout == "**ckschema lint**: passed: no findings\n")
    }

    /// The summary line the JSON report of the same run implies: the counts are not written
    /// down here, so a change to the example schemas or the rules does not break this test.
    static func expectedSummary(_ args: [String]) throws -> String {
        let json = try runCLI(args + ["--format", "json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        if let changes = root["changes"] as? [Any] {
            return "**ckschema diff**: " + (changes.isEmpty ? "no changes" : "\(changes.count) change" + (changes.count == 1 ? "" : "s"))
        }
        let s = try #require(root["summary"] as? [String: Int])
        return "**ckschema \(args[0])**: " + Markdown.counts(errors: s["errors"] ?? 0, warnings: s["warnings"] ?? 0, notes: s["notes"] ?? 0)
    }

    @Test(arguments: [
        (["check"], Int32(0)),
        (["promote", "--check"], Int32(0)),
        (["diff"], Int32(0)),
        (["validate", "--schema", "Tests/Fixtures/records/schema.yaml", "Tests/Fixtures/records/CK401.fail.ndjson"], Int32(1)),
    ])
    func everyReportingCommandHasIt(args: [String], code: Int32) throws {
        let r = try runCLI(args + ["--format", "markdown"])
        #expect(r.code == code, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A command that concludes (check, promote --check) starts with its verdict.
        var first = lines.first ?? ""
        if let r = first.range(of: #"\*\*: (passed|failed)[^:]*: "#, options: .regularExpression), ["check", "promote"].contains(args[0]) {
            #expect(first[r].contains(code == 0 ? "passed" : "failed"))
            first.replaceSubrange(r, with: "**: ")
        }
        #expect(first == (try Self.expectedSummary(args)))
        #expect(lines.count > 4 && lines[2].hasPrefix("| Location |") && lines[3].hasPrefix("|---|"), "\(r.stdout)")
        // One row per finding (or change), and every row has as many cells as the header.
        let header = lines[2].filter { $0 == "|" }.count
        let rows = lines.dropFirst(4).filter { !$0.isEmpty }
        #expect(!rows.isEmpty)
        for row in rows { #expect(Self.unescapedPipes(row) == header, "\(row)") }
    }

    static func unescapedPipes(_ row: String) -> Int {
        var n = 0, escaped = false
        for c in row {
            if escaped { escaped = false; continue }
            if c == "\\" { escaped = true } else if c == "|" { n += 1 }
        }
        return n
    }

    @Test func cellsEscapePipesNewlinesAndControlCharacters() {
        let d = Diagnostic.error("CK101", "name 'a|b' has\u{1B}[2J an escape\nand a newline `x`", at: SourceLocation(file: "we|ird`.yaml", line: 3, column: 4), fix: nil)
        let out = DiagnosticRenderer(format: .markdown, command: "lint").render([d])
        #expect(out == """
            **ckschema lint**: 1 error

            | Location | Severity | Code | Message |
            |---|---|---|---|
            | `we\\|ird'.yaml:3:4` | error | `CK101` | name 'a\\|b' has\\u{1B}\\[2J an escape<br>and a newline \\`x\\` |

            """)
        #expect(Self.unescapedPipes(out.split(separator: "\n").last.map(String.init) ?? "") == 5)
        #expect(!out.contains("\u{1B}"))
    }

    @Test func diffRejectsFormatsItHasNoUseFor() throws {
        let r = try runCLI(["diff", "--format", "sarif"])
        #expect(r.code == 2 && r.stderr.contains("diff prints text, json or markdown"))
    }
}
