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
@testable import CKSchemaPull
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

@Suite struct RendererTests {
    static let sample: [Diagnostic] = [
        .warning("CK120", "field 'Legacy.count' uses the legacy type number", at: SourceLocation(file: "Schemas/a b.yaml", line: 5, column: 7),
                 fix: "new fields should be int64 or double"),
        .error("CK105", "field 'Payload.body' is encrypted and cannot be queryable, sortable", at: SourceLocation(file: "Schemas/dev.yaml", line: 3, column: 9),
               fix: "remove the index or store a plaintext copy"),
    ]

    @Test func textIsCompilerStyle() {
        let text = DiagnosticRenderer(format: .text, command: "lint").render(Self.sample)
        #expect(text == """
        Schemas/a b.yaml:5:7: warning: field 'Legacy.count' uses the legacy type number [CK120]
          fix: new fields should be int64 or double
        Schemas/dev.yaml:3:9: error: field 'Payload.body' is encrypted and cannot be queryable, sortable [CK105]
          fix: remove the index or store a plaintext copy

        """)
    }

    @Test func textShowsSourceLineAndCaret() throws {
        let d = Diagnostic.error("CK105", "m", at: SourceLocation(file: Paths.fixture("lint/CK105-bad.yaml"), line: 5, column: 7))
        let text = DiagnosticRenderer(format: .text, command: "lint", showSource: true).render([d])
        #expect(text.hasSuffix("m [CK105]\n      body: { type: bytes, encrypted: true, indexes: [queryable] }\n      ^\n"))
    }

    @Test func jsonIsVersionedAndComplete() throws {
        let text = DiagnosticRenderer(format: .json, command: "lint").render(Self.sample)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["command"] as? String == "lint")
        let diags = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diags.count == 2)
        #expect(diags[0]["code"] as? String == "CK120")
        #expect(diags[0]["line"] as? Int == 5)
        #expect(diags[1]["fix"] as? String == "remove the index or store a plaintext copy")
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["errors": 1, "warnings": 1, "notes": 0])
    }

    @Test func githubAnnotationsEscapeTheirProperties() {
        let text = DiagnosticRenderer(format: .github, command: "lint", rules: RuleCatalog.info).render(Self.sample)
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "::warning file=Schemas/a b.yaml,line=5,col=7,title=CK120 legacy-number-type::field 'Legacy.count' uses the legacy type number%0Afix: new fields should be int64 or double")
        #expect(lines[1].hasPrefix("::error file=Schemas/dev.yaml,line=3,col=9,title=CK105 encrypted-field-indexed::"))
    }

    @Test func sarifIsTwoPointOneWithRules() throws {
        let text = DiagnosticRenderer(format: .sarif, command: "lint").render(Self.sample)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == ["CK105", "CK120"])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let first = results[0]
        #expect(first["ruleId"] as? String == "CK120")
        #expect(first["ruleIndex"] as? Int == 1)
        #expect(first["level"] as? String == "warning")
        let loc = try #require((first["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((loc["artifactLocation"] as? [String: Any])?["uri"] as? String == "Schemas/a%20b.yaml")
        #expect((loc["region"] as? [String: Any])?["startLine"] as? Int == 5)
    }

    @Test(arguments: OutputFormat.allCases)
    func everyFormatThroughTheBinary(format: OutputFormat) throws {
        let result = try runCLI(["lint", "Tests/Fixtures/lint/CK105-bad.yaml", "--format", format.rawValue])
        #expect(result.code == 1)
        #expect(result.stdout.contains("CK105"))
    }
}
