/// Each type allows only some index kinds: searchable only on strings and lists of strings
/// (so bytes are never searchable), assets never indexed.
///
/// Source: CloudKit Console Reference, "Indexes" ("Searchable ... available for String
/// fields"; assets cannot be indexed); CloudKit Schema Language field-options.
struct IndexNotAllowedRule: LintRule {
    static let info = CloudKitRule.indexNotAllowed.info

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        CloudKitRules.lint(schema, rule: .indexNotAllowed, into: &findings)
    }
}
