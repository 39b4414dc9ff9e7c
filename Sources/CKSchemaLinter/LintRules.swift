import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lint rules' codes and what `docs/rules.md` says of each.
public enum LintRules {
    /// Every rule the linter runs, in code order.
    static let types: [any LintRule.Type] = [
        InvalidNameRule.self, ReservedFieldNameRule.self, InvalidZoneNameRule.self, IndexNotAllowedRule.self,
        EncryptedIndexedRule.self, EncryptedTypeRule.self, EncryptedPublicRule.self, UnknownReferenceTargetRule.self,
        ReferenceOptionsRule.self, QueryIndexRule.self, QueryUnknownNameRule.self, DefaultZoneRule.self,
        MissingZoneCapabilityRule.self, QueryDatabaseRule.self, DeprecatedInQueryRule.self, LegacyNumberRule.self,
        UnknownRoleRule.self, CrossZoneReferenceRule.self, CreatorOnlyPublicQueryRule.self,
        PredicateSyntaxRule.self, PredicateUnsupportedRule.self, PredicateTypeRule.self, PredicateUnknownFieldRule.self, PredicateIndexRule.self,
        SubscriptionUnknownNameRule.self, SubscriptionDesiredKeysRule.self, SubscriptionDatabaseRule.self, SubscriptionZoneRule.self,
        SubscriptionFiresOnRule.self, SubscriptionDesiredKeyCountRule.self,
    ] + CoreDataLint.types + SwiftDataNotes.types

    /// Every rule the linter runs: its own, and CK016 (a folder the SwiftData reader did not
    /// search), whose code the input rules list (`InputRules.all`), not lint's (`all`).
    static let running: [any LintRule.Type] = types + [SwiftDataFolderSkippedRule.self]

    /// A suppression comment without a reason is not honoured.
    public static let suppressionWithoutReason = RuleInfo(
        code: "CK124", name: "suppression-without-reason",
        summary: "A 'ckschema-disable' comment gives no reason, so it is not honoured.",
        defaultSeverity: .warning, source: "ckschema's own convention (no CloudKit rule).")

    public static let all: [RuleInfo] = (types.map { $0.info } + [suppressionWithoutReason]).sorted { $0.code < $1.code }
}

/// Runs every lint rule over a schema, applies the configuration and the
/// `ckschema-disable` comments of the source files.
public struct Linter: Sendable {
    public var configuration: RuleSettings

    public init(configuration: RuleSettings = RuleSettings()) { self.configuration = configuration }

    /// The findings, sorted by place.
    public func lint(_ schema: Schema) -> [Diagnostic] { lint(schema, only: nil) }

    /// The findings of the rules whose code is in `codes` (every rule's when nil), sorted by
    /// place, and the comments without a reason (CK124): `lint(schema)` with the other rules'
    /// findings left out, for a caller that keeps only these (the scan).
    public func lint(_ schema: Schema, only codes: Set<String>?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        // The key each finding is about, when it points at a value: suppressions look there too.
        var keys: [SourceLocation?] = []
        // What several rules need (types by name, parsed predicates, CK104-CK107's one pass
        // over the fields) is computed once here, and every rule reads it.
        let context = LintContext(schema)
        // A rule that protects the store runs even when ckschema.yaml disables it.
        for type in LintRules.running where codes?.contains(type.info.code) ?? true
            && (!configuration.disabled.contains(type.info.code) || Suppressions.unsuppressible.contains(type.info.code)) {
            var findings: [LintFinding] = []
            type.init().check(context, into: &findings)
            let severity = configuration.severities[type.info.code] ?? type.info.defaultSeverity
            for f in findings {
                out.append(Diagnostic(code: type.info.code, severity: severity, location: f.location, message: f.message, fix: f.fix, fixIt: f.fixIt))
                keys.append(f.keyLocation)
            }
        }
        // The comments were found when the files were read: lint reads no file.
        let suppressions = Suppressions(schema.suppressions.items)
        out = suppressions.filter(out, keys: keys)
        if !configuration.disabled.contains(LintRules.suppressionWithoutReason.code) { out += suppressions.unreasoned }
        return out.sortedByLocation()
    }
}

/// The `ckschema-disable` comments of a schema's files (`Suppression`), by file and line,
/// and the CK124 findings of those without a reason.
package struct Suppressions {
    private let byFile: [String: [Int: [Suppression]]]
    package let unreasoned: [Diagnostic]

    /// Rules that protect the store: a name CloudKit refuses would reach SQL text (CK560),
    /// so a comment can silence style findings but never these.
    static let unsuppressible: Set<String> = [CloudKitRule.invalidName.code]

    package init(_ comments: [Suppression]) {
        var byFile: [String: [Int: [Suppression]]] = [:]
        for c in comments { byFile[c.file, default: [:]][c.line, default: []].append(c) }
        self.byFile = byFile
        unreasoned = comments.filter { !$0.reasoned }.map { c in
            Diagnostic(rule: LintRules.suppressionWithoutReason, "'\(Suppression.marker)' needs a reason after a colon; this one is not honoured", at: SourceLocation(file: c.file, line: c.line, column: c.column), fix: "write '# \(Suppression.marker) \(c.codes.sorted().joined(separator: " ")): why it is safe here'")
        }
    }

    /// The diagnostics no comment covers at their own place.
    package func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] { filter(diagnostics, keys: []) }

    /// The diagnostics no comment covers. `keys[i]`, when given, is the place of the key the
    /// i-th finding is about (it points at one of its values): a comment covering that line
    /// covers the finding too, so moving a finding from a key to its value kept every comment.
    package func filter(_ diagnostics: [Diagnostic], keys: [SourceLocation?]) -> [Diagnostic] {
        diagnostics.indices.compactMap { i in
            let d = diagnostics[i]
            guard !Self.unsuppressible.contains(d.code) else { return d }
            let key = i < keys.count ? keys[i] : nil
            return covered(d.location, d.code) || (key != d.location && covered(key, d.code)) ? nil : d
        }
    }

    /// True when a comment on `place`'s line, or alone on the line above, covers `code`.
    private func covered(_ place: SourceLocation?, _ code: String) -> Bool {
        guard let loc = place, let lines = byFile[loc.file] else { return false }
        if (lines[loc.line] ?? []).contains(where: { !$0.standalone && $0.covers(code) }) { return true }
        return (lines[loc.line - 1] ?? []).contains(where: { $0.standalone && $0.covers(code) })
    }
}
