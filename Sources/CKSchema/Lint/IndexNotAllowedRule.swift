/// Each type allows only some index kinds: searchable only on strings and lists of strings
/// (so bytes are never searchable), assets never indexed.
///
/// Source: CloudKit Console Reference, "Indexes" ("Searchable ... available for String
/// fields"; assets cannot be indexed); CloudKit Schema Language field-options.
struct IndexNotAllowedRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.indexNotAllowed

    static let info = RuleInfo(
        code: "CK104", name: "index-not-allowed",
        summary: "An index kind the field's type does not allow: searchable on anything but string or list<string>, any index on an asset.",
        defaultSeverity: .error,
        source: "CloudKit Console Reference: Indexes (developer.apple.com/documentation/cloudkit/managing-icloud-containers-with-the-cloudkit-database-app)")
}
