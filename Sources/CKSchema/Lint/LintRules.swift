import Foundation
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
        UnknownRoleRule.self,
        PredicateSyntaxRule.self, PredicateUnsupportedRule.self, PredicateTypeRule.self, PredicateUnknownFieldRule.self, PredicateIndexRule.self,
        SubscriptionUnknownNameRule.self, SubscriptionDesiredKeysRule.self, SubscriptionDatabaseRule.self, SubscriptionZoneRule.self,
        SubscriptionFiresOnRule.self, SubscriptionDesiredKeyCountRule.self,
    ] + CoreDataLint.types

    /// A suppression comment without a reason is not honoured.
    public static let suppressionWithoutReason = RuleInfo(
        code: "CK124", name: "suppression-without-reason",
        summary: "A 'ckschema-disable' comment gives no reason, so it is not honoured.",
        defaultSeverity: .warning)

    public static let all: [RuleInfo] = (types.map { $0.info } + [suppressionWithoutReason]).sorted { $0.code < $1.code }
}

/// Which rules run and how severe each is, from `ckschema.yaml`'s `lint:` section.
public struct LintConfiguration: Sendable, Equatable {
    public var disabled: Set<String>
    public var severities: [String: Severity]

    public init(disabled: Set<String> = [], severities: [String: Severity] = [:]) {
        self.disabled = disabled
        self.severities = severities
    }
}

/// Runs every lint rule over a schema, applies the configuration and the
/// `ckschema-disable` comments of the source files.
public struct Linter: Sendable {
    public var configuration: LintConfiguration

    public init(configuration: LintConfiguration = LintConfiguration()) { self.configuration = configuration }

    /// The findings, sorted by place.
    public func lint(_ schema: Schema) -> [Diagnostic] {
        var out: [Diagnostic] = []
        // CK104-CK107 share one pass over the fields, made when the first of them runs.
        var cloudKit: [CloudKitRule: [LintFinding]]?
        // A rule that protects the store runs even when ckschema.yaml disables it.
        for type in LintRules.types where !configuration.disabled.contains(type.info.code) || Suppressions.unsuppressible.contains(type.info.code) {
            var findings: [LintFinding] = []
            if let shared = type as? any CloudKitFieldLintRule.Type {
                if cloudKit == nil { cloudKit = CloudKitRules.lintFindings(schema) }
                findings = cloudKit?[shared.cloudKitRule] ?? []
            } else {
                type.init().check(schema, into: &findings)
            }
            let severity = configuration.severities[type.info.code] ?? type.info.defaultSeverity
            for f in findings {
                out.append(Diagnostic(code: type.info.code, severity: severity, location: f.location, message: f.message, fix: f.fix))
            }
        }
        var suppressions = Suppressions()
        // Read every file the schema came from, so a suppression without a reason is
        // reported even where no rule fired.
        var files = Set<String>()
        for t in schema.recordTypes { if let f = t.origin.location?.file { files.insert(f) } }
        for z in schema.zones { if let f = z.origin.location?.file { files.insert(f) } }
        for f in files.sorted() { _ = suppressions.directives(in: f) }
        out = suppressions.filter(out)
        if !configuration.disabled.contains(LintRules.suppressionWithoutReason.code) { out += suppressions.unreasoned }
        return out.sortedByLocation()
    }
}

/// `# ckschema-disable CK110: reason` on a line, or alone on the line above it, switches
/// a rule off there. The reason is required.
struct Suppressions {
    private var byFile: [String: [Int: [Directive]]] = [:]

    /// One `ckschema-disable` comment. A comment after code on its line (`standalone` false)
    /// covers that line only; a comment alone on its line covers the next line.
    struct Directive {
        var codes: Set<String>
        var reasoned: Bool
        var column: Int
        var standalone: Bool

        func covers(_ code: String) -> Bool { reasoned && (codes.contains(code) || codes.contains("all")) }
    }
    private(set) var unreasoned: [Diagnostic] = []

    static let marker = "ckschema-disable"

    /// Rules that protect the store: a name CloudKit refuses would reach SQL text (CK560),
    /// so a comment can silence style findings but never these.
    static let unsuppressible: Set<String> = [InvalidNameRule.info.code]

    mutating func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { d in
            guard let loc = d.location, !Self.unsuppressible.contains(d.code) else { return true }
            let lines = directives(in: loc.file)
            if (lines[loc.line] ?? []).contains(where: { !$0.standalone && $0.covers(d.code) }) { return false }
            if (lines[loc.line - 1] ?? []).contains(where: { $0.standalone && $0.covers(d.code) }) { return false }
            return true
        }
    }

    mutating func directives(in file: String) -> [Int: [Directive]] {
        if let cached = byFile[file] { return cached }
        var result: [Int: [Directive]] = [:]
        if let data = try? InputFile.read(path: file, limit: YAMLReader.maxFileSize) {
            for (lineNo, line) in Self.linesContainingMarker(data) {
                guard let r = line.range(of: Self.marker) else { continue }
                let rest = line[r.upperBound...]
                let (codesPart, reason): (Substring, Substring) = {
                    if let colon = rest.firstIndex(of: ":") { return (rest[..<colon], rest[rest.index(after: colon)...]) }
                    return (rest, "")
                }()
                let codes = Set(codesPart.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init))
                let reasoned = !reason.trimmingCharacters(in: .whitespaces).isEmpty
                let column = line.distance(from: line.startIndex, to: r.lowerBound) + 1
                // Alone on its line: only a comment opener (`#`, `//`, `--`) and blanks before the marker.
                let before = line[..<r.lowerBound].filter { !$0.isWhitespace }
                let standalone = ["#", "//", "--", "/*"].contains(String(before))
                result[lineNo, default: []].append(Directive(codes: codes, reasoned: reasoned, column: column, standalone: standalone))
                if !reasoned {
                    unreasoned.append(Diagnostic(
                        code: LintRules.suppressionWithoutReason.code, severity: LintRules.suppressionWithoutReason.defaultSeverity,
                        location: SourceLocation(file: file, line: lineNo, column: column),
                        message: "'\(Self.marker)' needs a reason after a colon; this one is not honoured",
                        fix: "write '# \(Self.marker) \(codes.sorted().joined(separator: " ")): why it is safe here'"))
                }
            }
        }
        byFile[file] = result
        return result
    }

    /// The lines (number and text) that contain the marker, found by a byte scan so that
    /// a large file without suppressions costs one pass and no string work.
    static func linesContainingMarker(_ data: Data) -> [(Int, String)] {
        let marker = Array(marker.utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [(Int, String)] in
            guard raw.count >= marker.count else { return [] }
            var out: [(Int, String)] = []
            var searchFrom = 0, line = 1, counted = 0
            while let offset = Self.find(marker, in: raw, from: searchFrom) {
                // Count newlines up to the hit to learn its line and where the line starts.
                let bytes = raw.bindMemory(to: UInt8.self)
                for j in counted..<offset where bytes[j] == 0x0A { line += 1 }
                let lineStart = Self.startOfLine(bytes, before: offset)
                var end = offset
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                out.append((line, String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self)))
                counted = offset
                searchFrom = end
            }
            return out
        }
    }

    /// The offset of `needle` in `haystack` at or after `from`: memchr to the needle's
    /// rarest-looking byte ('k' of "ckschema"), then a compare.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress else { return nil }
        let anchor = 1  // needle[1] == "k"
        var at = from + anchor
        while at < haystack.count {
            guard let p = memchr(base + at, Int32(needle[anchor]), haystack.count - at) else { return nil }
            let hit = base.distance(to: UnsafeRawPointer(p))
            let start = hit - anchor
            if start >= from, start + needle.count <= haystack.count,
               memcmp(base + start, needle, needle.count) == 0 { return start }
            at = hit + 1
        }
        return nil
    }

    private static func startOfLine(_ bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Int {
        var j = offset
        while j > 0 && bytes[j - 1] != 0x0A { j -= 1 }
        return j
    }
}

