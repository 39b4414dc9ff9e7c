import Foundation
import Testing
@testable import CKSchema

/// Every lint rule has a fixture that triggers it and one that does not.
@Suite struct LintRuleTests {
    /// The YAML-fixture rules; the Core Data rules (CK61x) read models: CoreDataLintTests.
    static let codes = LintRules.all.map(\.code).filter { !$0.hasPrefix("CK61") }

    @Test(arguments: codes)
    func badFixtureTriggersOnlyItsRule(code: String) throws {
        let path = Paths.fixture("lint/\(code)-bad.yaml")
        let schema = try SchemaSource.load(path: path)
        let found = Linter().lint(schema)
        #expect(!found.isEmpty, "\(code)-bad.yaml triggers nothing")
        #expect(found.allSatisfy { $0.code == code || ($0.code == "CK120" && code == "CK124") }, "\(found.map(\.code))")
        #expect(found.contains { $0.code == code })
    }

    @Test(arguments: codes)
    func goodFixtureIsClean(code: String) throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/\(code)-good.yaml"))
        let found = Linter().lint(schema)
        #expect(found.isEmpty, "\(found.map { "\($0.code) \($0.message)" })")
    }

    /// The exact text a user sees, through the built binary, and its exit code.
    @Test(arguments: codes)
    func binaryPrintsExpectedDiagnostics(code: String) throws {
        let rel = "Tests/Fixtures/lint/\(code)-bad.yaml"
        let result = try runCLI(["lint", rel])
        let expected = try read(Paths.fixture("lint/\(code)-bad.expected"))
        #expect(result.stdout == expected)
        let severity = LintRules.all.first { $0.code == code }!.defaultSeverity
        #expect(result.code == (severity == .error ? 1 : 0))
        let good = try runCLI(["lint", "Tests/Fixtures/lint/\(code)-good.yaml"])
        #expect(good.code == 0)
        #expect(good.stdout == "ckschema lint: passed: 0 errors, 0 warnings\n")
    }

    @Test func failOnWarningFailsOnWarnings() throws {
        let result = try runCLI(["lint", "Tests/Fixtures/lint/CK120-bad.yaml", "--fail-on", "warning"])
        #expect(result.code == 1)
    }

    @Test func configurationDisablesAndRaisesRules() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/CK120-bad.yaml"))
        #expect(Linter(configuration: LintConfiguration(disabled: ["CK120"])).lint(schema).isEmpty)
        let raised = Linter(configuration: LintConfiguration(severities: ["CK120": .error])).lint(schema)
        #expect(raised.count == 2 && raised.allSatisfy { $0.severity == .error })
    }

    @Test func recordNameMessageIsCloudKits() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("lint/CK110-bad.yaml"))
        let messages = Linter().lint(schema).map(\.message)
        #expect(messages.contains { $0.contains("Field 'recordName' is not marked queryable") })
    }

    @Test func exampleSchemasLintClean() throws {
        for name in ["development", "production"] {
            let schema = try SchemaSource.load(path: Paths.root + "/Schemas/\(name).yaml")
            #expect(Linter().lint(schema).isEmpty, "\(name)")
        }
    }

    /// docs/rules.md has a section for every code the tool can emit.
    @Test func everyRuleIsDocumented() throws {
        let doc = try read(Paths.root + "/docs/rules.md")
        for rule in RuleCatalog.all {
            #expect(doc.contains("### \(rule.code)"), "docs/rules.md lacks \(rule.code)")
        }
    }

    /// Each rule is listed once, with its source, its home in the code and its test.
    @Test func everyRuleSectionNamesItsSourceHomeAndTest() throws {
        let doc = try read(Paths.root + "/docs/rules.md")
        let sections = doc.components(separatedBy: "\n### ").dropFirst()
        var seen = Set<String>()
        for section in sections {
            let body = section.components(separatedBy: "\n## ")[0]
            let code = String(body.prefix(5))
            #expect(seen.insert(code).inserted, "\(code) is listed twice")
            for key in ["- Source:", "- Home:", "- Test:"] {
                #expect(body.contains("\n" + key), "\(code) has no '\(key)' line")
            }
            // The home names files that exist, so the doc cannot point at code that moved.
            let home = body.components(separatedBy: "\n").first { $0.hasPrefix("- Home:") } ?? ""
            for part in home.components(separatedBy: "(").dropFirst() {
                let path = part.components(separatedBy: ")")[0]
                if path.hasPrefix("Sources/") {
                    #expect(FileManager.default.fileExists(atPath: Paths.root + "/" + path), "\(code)'s home \(path) does not exist")
                }
            }
        }
        #expect(seen.count >= RuleCatalog.all.count)
    }
}
