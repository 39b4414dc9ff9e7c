import CKSchemaModel

/// Codes for untrusted input that would otherwise reach SQL, a terminal or the store
/// changed: see `docs/security.md`.
public enum SecurityRules {
    /// A name that fails CloudKit's grammar where the store would write it into SQL.
    public static let unsafeStoreName = RuleInfo(
        code: "CK560", name: "store-unsafe-name",
        summary: "A record type or field name that is not a CloudKit name reached the store (a migration, a deployment or an index); it is refused before any SQL runs.",
        defaultSeverity: .error,
        source: "CloudKit Console: record type and field names; CKRecord key names (developer.apple.com/documentation/cloudkit/ckrecord)")

    /// A SARIF report over more results than code scanning accepts.
    public static let reportCapped = RuleInfo(
        code: "CK030", name: "report-capped",
        summary: "A SARIF report kept the first 25,000 results (GitHub code scanning's limit per run) and says how many it left out; JSON and text reports stream every result.",
        defaultSeverity: .note,
        source: "GitHub Docs, SARIF support for code scanning: at most 25,000 results per run")

    public static let all: [RuleInfo] = [reportCapped, unsafeStoreName]
}
