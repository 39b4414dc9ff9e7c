import CKSchemaModel

/// The predicate and subscription rule codes (CK7xx) and what `docs/rules.md` says of each.
public enum PredicateRules {
    static let ckquery = "CKQuery, \"Predicate Rules for Query Objects\" (developer.apple.com/documentation/cloudkit/ckquery)"

    public static let syntax = RuleInfo(
        code: "CK700", name: "predicate-syntax",
        summary: "A predicate does not parse: an unbalanced quote or parenthesis, an unknown operator or keyword, a missing value, or a wrong number of arguments.",
        defaultSeverity: .error, source: ckquery)
    public static let unsupported = RuleInfo(
        code: "CK701", name: "predicate-unsupported",
        summary: "A predicate uses what CloudKit refuses: OR, a function other than distanceToLocation:fromLocation:, NOT around AND, BETWEEN, a token search or a distance, ANY/ALL/NONE other than ANY list == value, two keys compared, a key path, or nil.",
        defaultSeverity: .error, source: ckquery)
    public static let typeMismatch = RuleInfo(
        code: "CK702", name: "predicate-type-mismatch",
        summary: "A predicate compares a field with a value of another type (a string with an int64 field), or uses an operator the field's type does not have (BEGINSWITH on a number, CONTAINS on a field that is not a list).",
        defaultSeverity: .error, source: ckquery)
    public static let unknownField = RuleInfo(
        code: "CK703", name: "predicate-unknown-field",
        summary: "A predicate names a field its record type does not have.",
        defaultSeverity: .error, source: ckquery)
    public static let needsIndex = RuleInfo(
        code: "CK704", name: "predicate-needs-index",
        summary: "A predicate filters on a field that is not queryable, or searches tokens where no field is searchable (CloudKit's words: Field 'x' is not marked queryable).",
        defaultSeverity: .error,
        source: ckquery + "; server error \"Field 'recordName' is not marked queryable\"")

    public static let all: [RuleInfo] = [syntax, unsupported, typeMismatch, unknownField, needsIndex]
}
