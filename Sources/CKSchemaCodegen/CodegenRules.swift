import CKSchemaModel

/// Codes for a schema `ckschema generate swift` cannot express as Swift (docs/codegen.md):
/// the generator reports them and writes nothing.
public enum CodegenRules {
    /// Two names of one scope that map to the same Swift identifier.
    public static let nameCollision = RuleInfo(
        code: "CK951", name: "codegen-name-collision",
        summary: "Two record types, fields, zones, queries or subscriptions map to the same Swift name (docs/codegen.md's naming rules), so one would overwrite the other; nothing is generated.",
        defaultSeverity: .error,
        source: "The Swift Programming Language, Lexical Structure: identifiers; CKRecord.FieldKey names (developer.apple.com/documentation/cloudkit/ckrecord)")

    /// A record type placed in a zone the schema does not declare.
    public static let undeclaredZone = RuleInfo(
        code: "CK952", name: "codegen-undeclared-zone",
        summary: "A record type names a zone that the schema's zones: do not declare, so the generator cannot give it a zone type; nothing is generated.",
        defaultSeverity: .error,
        source: "CKRecordZone.ID (developer.apple.com/documentation/cloudkit/ckrecordzone/id)")

    /// A declared query that production could not run, so it has no generated function.
    public static let queryNotGenerated = RuleInfo(
        code: "CK953", name: "codegen-query-not-generated",
        summary: "A declared query filters, searches or sorts on a field without the index it needs (or a field the type lacks), or queries all records without a queryable recordName; its function is left out, because it would not compile.",
        defaultSeverity: .warning,
        source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery): fields in a predicate must be queryable, sort fields sortable; server error \"Field 'recordName' is not marked queryable\"")

    public static let all: [RuleInfo] = [nameCollision, undeclaredZone, queryNotGenerated]
}
