/// How bad a finding is. `--fail-on` picks the lowest severity that fails a run.
public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case note, warning, error

    public static func < (a: Severity, b: Severity) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// What `docs/rules.md` says of one rule code, in the form SARIF and `--help` need it.
public struct RuleInfo: Sendable, Hashable {
    public var code: String
    /// A short kebab-case name (`encrypted-field-indexed`).
    public var name: String
    /// One sentence: what the rule catches.
    public var summary: String
    public var defaultSeverity: Severity
    /// The CloudKit documentation the rule comes from (empty for format rules).
    public var source: String

    public init(code: String, name: String, summary: String, defaultSeverity: Severity, source: String = "") {
        self.code = code
        self.name = name
        self.summary = summary
        self.defaultSeverity = defaultSeverity
        self.source = source
    }
}
