/// Codes for untrusted input that would otherwise reach SQL, a terminal or the store
/// changed: see `docs/security.md`.
public enum SecurityRules {
    /// A name that fails CloudKit's grammar where the store would write it into SQL.
    public static let unsafeStoreName = RuleInfo(
        code: "CK560", name: "store-unsafe-name",
        summary: "A record type or field name that is not a CloudKit name reached the store (a migration, a deployment or an index); it is refused before any SQL runs.",
        defaultSeverity: .error,
        source: "CloudKit Console: record type and field names; CKRecord key names (developer.apple.com/documentation/cloudkit/ckrecord)")

    public static let all: [RuleInfo] = [unsafeStoreName]
}
