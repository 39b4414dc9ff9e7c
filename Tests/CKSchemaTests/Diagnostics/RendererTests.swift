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
        Schemas/a b.yaml:5:7: note: new fields should be int64 or double
        Schemas/dev.yaml:3:9: error: field 'Payload.body' is encrypted and cannot be queryable, sortable [CK105]
        Schemas/dev.yaml:3:9: note: remove the index or store a plaintext copy

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

/// Fixes as Xcode shows them: a `note:` line with its own place, fix-its in JSON and SARIF,
/// and the caret under the text a fix-it replaces.
@Suite struct FixItRenderingTests {
    static let file = "Schemas/dev.yaml"
    static let typo = Diagnostic.error("CK012", "unknown field type 'strng'", at: SourceLocation(file: file, line: 5, column: 14),
                                       fix: "use one of: string, int64", fixIt: FixIt(replacing: 5, at: SourceLocation(file: file, line: 5, column: 14), with: "string"))
    static let quoted = Diagnostic.error("CK012", "unknown field type '[asset]'", at: SourceLocation(file: file, line: 8, column: 15),
                                         fix: "use list<asset>", fixIt: FixIt(replacing: 7, at: SourceLocation(file: file, line: 8, column: 16), with: "list<asset>"))

    @Test func theNoteLineHasThePlaceOfWhatTheFixItReplacesElseTheFindingsOwn() {
        let r = DiagnosticRenderer(format: .text, command: "lint")
        #expect(r.render([Self.quoted]) == """
            Schemas/dev.yaml:8:15: error: unknown field type '[asset]' [CK012]
            Schemas/dev.yaml:8:16: note: use list<asset>

            """)
        let placeless = Diagnostic.error("CK805", "not a team", at: nil, fix: "pass --team-id")
        #expect(r.render([placeless]) == "ckschema: error: not a team [CK805]\nckschema: note: pass --team-id\n")
        // A fix-it without words of its own says what it changes.
        var bare = Self.typo
        bare.fix = nil
        #expect(r.render([bare]).hasSuffix("Schemas/dev.yaml:5:14: note: replace with 'string'\n"))
        #expect(r.render([.error("CK105", "m", at: SourceLocation(file: Self.file, line: 1, column: 1))]) == "Schemas/dev.yaml:1:1: error: m [CK105]\n")
    }

    @Test func jsonCarriesTheFixItBesideTheFixAndOnlyWhereThereIsOne() throws {
        let text = DiagnosticRenderer(format: .json, command: "lint").render([Self.typo, .error("CK105", "m", at: nil, fix: "f")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let diags = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diags[0]["fixIt"] == nil)
        #expect(diags[1]["fix"] as? String == "use one of: string, int64")
        let fixIt = try #require(diags[1]["fixIt"] as? [String: Any])
        #expect(fixIt["file"] as? String == Self.file)
        #expect(fixIt["line"] as? Int == 5 && fixIt["endLine"] as? Int == 5)
        #expect(fixIt["column"] as? Int == 14 && fixIt["endColumn"] as? Int == 19)
        #expect(fixIt["replacement"] as? String == "string")
        #expect(Set(fixIt.keys) == ["file", "line", "column", "endLine", "endColumn", "replacement"])
    }

    @Test func sarifCarriesTheFixItAsAFixWithItsReplacement() throws {
        let text = DiagnosticRenderer(format: .sarif, command: "lint").render([Self.typo])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        #expect((result["message"] as? [String: Any])?["text"] as? String == "unknown field type 'strng' Fix: use one of: string, int64")
        let fix = try #require((result["fixes"] as? [[String: Any]])?.first)
        #expect((fix["description"] as? [String: Any])?["text"] as? String == "replace with 'string'")
        let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
        #expect((change["artifactLocation"] as? [String: Any])?["uri"] as? String == Self.file)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        let region = try #require(replacement["deletedRegion"] as? [String: Int])
        #expect(region == ["startLine": 5, "startColumn": 14, "endLine": 5, "endColumn": 19])
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "string")
        // A result without a fix-it has no `fixes`.
        let plain = DiagnosticRenderer(format: .sarif, command: "lint").render([.error("CK105", "m", at: nil, fix: "f")])
        #expect(!plain.contains("\"fixes\""))
    }

    @Test func theCaretUnderlinesWhatTheFixItReplacesAndShowsTheReplacement() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.yaml"
        try Data("ckschema: 1\nrecordTypes:\n  Note:\n    fields:\n      title: strng\n      n: { type: bytes }\n      \u{1B}x: strng\n      photos: \"[asset]\"\n".utf8).write(to: URL(fileURLWithPath: path))
        let r = DiagnosticRenderer(format: .text, command: "lint", showSource: true)
        func at(_ line: Int, _ column: Int, _ length: Int, _ fixColumn: Int? = nil, _ replacement: String = "string") -> Diagnostic {
            .error("CK012", "m", at: SourceLocation(file: path, line: line, column: column), fix: "f",
                   fixIt: FixIt(replacing: length, at: SourceLocation(file: path, line: line, column: fixColumn ?? column), with: replacement))
        }
        #expect(r.render([at(5, 14, 5)]) == "\(path):5:14: error: m [CK012]\n      title: strng\n             ^~~~~\n             string\n\(path):5:14: note: f\n")
        // Quotes stay: the caret is on the scalar, the replacement goes inside them.
        #expect(r.render([at(8, 15, 7, 16, "list<asset>")]).contains("      photos: \"[asset]\"\n              ^~~~~~~~\n               list<asset>\n"))
        // An escaped control character before the caret widens the lead as it is shown.
        #expect(r.render([at(7, 11, 5)]).contains("      \\u{1B}x: strng\n               ^~~~~\n               string\n"))
        // Without a fix-it the caret stays one character.
        #expect(r.render([.error("CK105", "m", at: SourceLocation(file: path, line: 6, column: 10))]).contains("      n: { type: bytes }\n         ^\n"))
    }

    @Test func aFixItThatNamesItsTextIsKeptOnlyWhereTheFileHoldsIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/s.yaml"
        try Data("a: moderatr\nb: \"moderatr\": x\nc: moderatrs\nd: 'mod\\x65ratr'\nGRANT READ TO moderatr\n".utf8).write(to: URL(fileURLWithPath: path))
        func fixIt(_ line: Int, _ column: Int) -> FixIt? {
            let d = Diagnostic.error("CK121", "m", at: SourceLocation(file: path, line: line, column: column), fix: "f",
                                     fixIt: FixIt(renaming: "moderatr", at: SourceLocation(file: path, line: line, column: column), to: "moderator"))
            var cache = SourceLines()
            return DiagnosticRenderer(format: .json, command: "lint").checked(d, cache: &cache).fixIt
        }
        #expect(fixIt(1, 4) == FixIt(replacing: 8, at: SourceLocation(file: path, line: 1, column: 4), with: "moderator"))
        #expect(fixIt(2, 4) == FixIt(replacing: 8, at: SourceLocation(file: path, line: 2, column: 5), with: "moderator"), "inside its quotes")
        #expect(fixIt(3, 4) == nil, "a longer word")
        #expect(fixIt(4, 4) == nil, "spelt with an escape")
        #expect(fixIt(5, 1) == nil, "another word at the place")
        #expect(fixIt(5, 15) != nil)
        #expect(fixIt(9, 1) == nil, "no such line")
    }
}

/// A lint finding's fix-it through the built binary, in every format that carries one.
@Suite struct FixItCLITests {
    @Test func theRoleRenameReachesJSONAndSARIF() throws {
        let json = try runCLI(["lint", "Tests/Fixtures/lint/CK121-bad.yaml", "--format", "json"])
        #expect(json.code == 1)
        #expect(json.stdout.contains("""
                  "fix": "add 'moderatr' to 'roles:' or use _world, _icloud or _creator",
                  "fixIt": {
                    "file": "Tests/Fixtures/lint/CK121-bad.yaml",
                    "line": 7,
                    "column": 7,
                    "endLine": 7,
                    "endColumn": 15,
                    "replacement": "moderator"
                  }
                }
            """), "\(json.stdout)")
        let sarif = try runCLI(["lint", "Tests/Fixtures/lint/CK121-bad.yaml", "--format", "sarif"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let result = try #require(((object["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let change = try #require(((result["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        #expect(replacement["deletedRegion"] as? [String: Int] == ["startLine": 7, "startColumn": 7, "endLine": 7, "endColumn": 15])
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "moderator")
    }

    @Test func aGrantWrittenAnotherWayGetsNoFixIt() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A quoted role is renamed inside its quotes; one spelt with an escape is left alone.
        try Data("ckschema: 1\nroles: [moderator]\nrecordTypes:\n  Post:\n    grants:\n      \"moderatr\": [read]\n  Memo:\n    grants:\n      \"mod\\x65ratr\": [read]\n".utf8)
            .write(to: URL(fileURLWithPath: dir + "/s.yaml"))
        let r = try runCLI(["lint", "s.yaml", "--format", "json"], cwd: dir)
        #expect(r.code == 1)
        #expect(r.stdout.components(separatedBy: "\"fixIt\"").count == 2, "\(r.stdout)")
        #expect(r.stdout.contains("\"line\": 6,\n        \"column\": 8,\n        \"endLine\": 6,\n        \"endColumn\": 16,"), "\(r.stdout)")
        let text = try runCLI(["lint", "s.yaml"], cwd: dir)
        #expect(text.stdout.contains("s.yaml:6:7: error: grant on 'Post' names role 'moderatr', which is not defined; did you mean 'moderator'? [CK121]\ns.yaml:6:8: note: add 'moderatr'"), "\(text.stdout)")
        #expect(text.stdout.contains("s.yaml:9:7: note: add 'moderatr'"), "\(text.stdout)")
    }
}
