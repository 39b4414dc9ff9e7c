import CKSchemaModel

/// Each type allows only some index kinds: searchable only on strings and lists of strings
/// (so bytes are never searchable), assets never indexed.
///
/// Source: CloudKit Console Reference, "Indexes" ("Searchable ... available for String
/// fields"; assets cannot be indexed); CloudKit Schema Language field-options.
struct IndexNotAllowedRule: CloudKitFieldLintRule {
    static let cloudKitRule = CloudKitRule.indexNotAllowed
}
