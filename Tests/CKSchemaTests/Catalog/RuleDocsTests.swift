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


/// Issue 18, point 7: each rule's header in docs/rules.md (the `### CODE name` line and its
/// Severity, Catches and Source lines) is generated from its `RuleInfo`, the text SARIF and
/// `--format json` show, so the two cannot drift. The prose below the header (Home, Test and
/// anything else) stays hand-written.
///
/// After changing a rule's info, run `CKSCHEMA_UPDATE_RULES_DOC=1 swift test --filter
/// RuleDocsTests` and review the diff of docs/rules.md.
@Suite struct RuleDocsTests {
    /// The generated header of one rule.
    /// `severityNote`: a hand-written parenthesis after the severity word, kept
    /// (`- Severity: error (class forbidden)`).
    static func header(_ r: RuleInfo, severityNote: String = "") -> [String] {
        ["### \(r.code) \(r.name)", "", "- Severity: \(r.defaultSeverity.rawValue)\(severityNote)", "- Catches: \(r.summary)", "- Source: \(r.source)"]
    }

    /// The doc with every rule's header written from its info; sections of codes the catalog
    /// does not know are left as they are (RuleCatalogTests reports them).
    static func regenerated(_ doc: String) -> String {
        var lines = doc.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            guard lines[i].hasPrefix("### CK"), let rule = RuleCatalog.info(String(lines[i].dropFirst(4).prefix(5))) else { i += 1; continue }
            // The header runs to the last of its generated lines, before the hand-written ones.
            var end = i + 1
            if end < lines.count, lines[end].isEmpty { end += 1 }
            while end < lines.count, ["- Severity:", "- Catches:", "- Source:"].contains(where: { lines[end].hasPrefix($0) }) { end += 1 }
            let prefix = "- Severity: \(rule.defaultSeverity.rawValue) ("
            let note = lines[i..<end].first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count - 2)) } ?? ""
            let generated = header(rule, severityNote: note)
            lines.replaceSubrange(i..<end, with: generated)
            i += generated.count
        }
        return lines.joined(separator: "\n")
    }

    @Test func headersAreGeneratedFromRuleInfo() throws {
        let path = Paths.root + "/docs/rules.md"
        let doc = try read(path)
        let generated = Self.regenerated(doc)
        if ProcessInfo.processInfo.environment["CKSCHEMA_UPDATE_RULES_DOC"] == "1", generated != doc {
            try Data(generated.utf8).write(to: URL(fileURLWithPath: path))
        }
        let ours = generated.components(separatedBy: "\n"), theirs = doc.components(separatedBy: "\n")
        let first = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(generated == doc, "docs/rules.md line \((first?.offset ?? 0) + 1) is not generated from RuleInfo: run CKSCHEMA_UPDATE_RULES_DOC=1 swift test --filter RuleDocsTests\n  doc:  \(first?.element.1 ?? "")\n  info: \(first?.element.0 ?? "")")
    }

    @Test func theGeneratorKeepsTheProse() {
        let rule = RuleCatalog.all[0]
        let doc = "# Rules\n\n### \(rule.code) old-name\n\n- Severity: note\n- Catches: old words\n- Source: old\n- Home: `X` (Sources/X.swift)\n- Test: `Y`\n\nMore prose.\n"
        let out = Self.regenerated(doc)
        #expect(out.contains("### \(rule.code) \(rule.name)\n\n- Severity: \(rule.defaultSeverity.rawValue)\n- Catches: \(rule.summary)\n- Source: \(rule.source)\n- Home: `X` (Sources/X.swift)\n- Test: `Y`\n\nMore prose.\n"))
        #expect(Self.regenerated(out) == out)
    }
}
