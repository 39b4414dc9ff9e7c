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

/// The rule catalog and docs/rules.md agree: every code is documented once, with its source,
/// its home in the code and its test, and the paths it names exist.
@Suite struct RuleCatalogTests {
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
        var testsNamed = 0
        for section in sections {
            let body = section.components(separatedBy: "\n## ")[0]
            let code = String(body.prefix(5))
            #expect(seen.insert(code).inserted, "\(code) is listed twice")
            for key in ["- Source:", "- Home:", "- Test:"] {
                #expect(body.contains("\n" + key), "\(code) has no '\(key)' line")
            }
            // The home and the test name files that exist, so the doc cannot point at code that moved.
            for key in ["- Home:", "- Test:"] {
                let line = body.components(separatedBy: "\n").first { $0.hasPrefix(key) } ?? ""
                for part in line.components(separatedBy: "(").dropFirst() {
                    let path = part.components(separatedBy: ")")[0]
                    if path.hasPrefix("Sources/") || path.hasPrefix("Tests/") {
                        #expect(FileManager.default.fileExists(atPath: Paths.root + "/" + path), "\(code)'s \(key) \(path) does not exist")
                    }
                }
            }
            // The tests it names exist: `SuiteTests` and `SuiteTests.testName`.
            let testLine = body.components(separatedBy: "\n").first { $0.hasPrefix("- Test:") } ?? ""
            for name in Self.namedTests(in: testLine) {
                testsNamed += 1
                #expect(Self.testSources.contains(name.suite), "\(code) names the suite \(name.suite), which does not exist")
                if let test = name.test { #expect(Self.testSources.contains("func \(test)("), "\(code) names the test \(name.suite).\(test), which does not exist") }
            }
        }
        #expect(seen.count >= RuleCatalog.all.count)
        // The check above reads the doc's test names: most rules name theirs.
        #expect(testsNamed >= RuleCatalog.all.count / 2, "only \(testsNamed) test names found in docs/rules.md")
    }

    /// Every code is one rule: no two rules share a code.
    @Test func everyCodeIsOneRule() {
        let codes = RuleCatalog.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        for rule in RuleCatalog.all { #expect(RuleCatalog.info(rule.code) == rule) }
    }

    /// Every test source, as one text.
    static let testSources: String = {
        let root = Paths.root + "/Tests/CKSchemaTests"
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return files.compactMap { try? String(contentsOfFile: root + "/" + $0, encoding: .utf8) }.joined(separator: "\n")
    }()

    /// The `SuiteTests` and `SuiteTests.test` names in backticks on a Test line.
    static func namedTests(in line: String) -> [(suite: String, test: String?)] {
        line.components(separatedBy: "`").enumerated().compactMap { i, word in
            guard i % 2 == 1 else { return nil }
            let parts = word.split(separator: ".", maxSplits: 1).map(String.init)
            guard let suite = parts.first, suite.hasSuffix("Tests"), suite.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
            let test = parts.count > 1 ? parts[1].prefix { $0.isLetter || $0.isNumber } : nil
            return (suite, test.map(String.init).flatMap { $0.isEmpty ? nil : $0 })
        }
    }
}
