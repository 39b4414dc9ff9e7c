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

/// Every rule code the tool can emit. Each subsystem contributes its own list.
public enum RuleCatalog {
    public static var all: [RuleInfo] {
        InputRules.all + LintRules.all + [SchemaFormatter.notFormatted] + RecordsRules.all + PromotionRules.all
            + CKDBRules.all + StoreRules.all + SecurityRules.all
    }

    public static func info(_ code: String) -> RuleInfo? { all.first { $0.code == code } }
}
