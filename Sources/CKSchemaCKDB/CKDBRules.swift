import CKSchemaModel

/// The codes the `.ckdb` reader and writer emit (CK2xx) and what `docs/rules.md` says of each.
///
/// The grammar and the implicit system fields come from Apple's documentation of the
/// CloudKit Schema Language ("Integrating a Text-Based Schema into Your Workflow",
/// https://developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow).
public enum CKDBRules {
    static let language = "CloudKit Schema Language grammar (developer.apple.com/documentation/cloudkit/integrating-a-text-based-schema-into-your-workflow)"

    // Reading (`ckschema import`, and any command given a .ckdb schema): errors, exit 2.
    public static let syntax = RuleInfo(code: "CK201", name: "ckdb-syntax", summary: "A .ckdb syntax error: something other than what the grammar expects at that point (a missing comma, parenthesis or semicolon, a truncated file, a misspelt keyword).", defaultSeverity: .error, source: language)
    public static let unknownType = RuleInfo(code: "CK202", name: "ckdb-unknown-type", summary: "A field type the CloudKit Schema Language does not have (with a did-you-mean).", defaultSeverity: .error, source: language)
    public static let unterminated = RuleInfo(code: "CK203", name: "ckdb-unterminated", summary: "A '/*' comment or a quoted name that is never closed.", defaultSeverity: .error, source: language)
    public static let duplicateField = RuleInfo(code: "CK204", name: "ckdb-duplicate-field", summary: "A field (or system field) listed twice in one record type.", defaultSeverity: .error, source: language)
    public static let duplicateRecordType = RuleInfo(code: "CK205", name: "ckdb-duplicate-record-type", summary: "A record type defined twice in one schema.", defaultSeverity: .error, source: language)
    public static let unknownRole = RuleInfo(code: "CK206", name: "ckdb-unknown-role", summary: "A GRANT to a role that is neither built in (_world, _icloud, _creator) nor created with CREATE ROLE.", defaultSeverity: .error, source: "CloudKit Schema Language, create-role and the GRANT clause (security roles).")
    public static let duplicateRole = RuleInfo(code: "CK207", name: "ckdb-duplicate-role", summary: "CREATE ROLE twice for one name, or for a built-in role.", defaultSeverity: .error, source: "CloudKit Schema Language, create-role.")
    public static let invalidCharacter = RuleInfo(code: "CK208", name: "ckdb-invalid-character", summary: "Bytes that cannot start any token (binary data, a stray symbol).", defaultSeverity: .error, source: language)
    public static let systemField = RuleInfo(code: "CK209", name: "ckdb-system-field", summary: "A name with a leading underscore that is not one of the six system fields, or a system field given another type, a list or ENCRYPTED.", defaultSeverity: .error, source: "CloudKit Schema Language, implicit system fields (`\"___createTime\" TIMESTAMP`, `\"___createdBy\" REFERENCE`, `\"___etag\" STRING`, `\"___modTime\" TIMESTAMP`, `\"___modifiedBy\" REFERENCE`, `\"___recordID\" REFERENCE`).")
    public static let encryption = RuleInfo(code: "CK210", name: "ckdb-encryption", summary: "ENCRYPTED on a type that cannot be encrypted (ASSET, REFERENCE, NUMBER), ENCRYPTED outside LIST<...>, or an encrypted field with an index.", defaultSeverity: .error, source: "CloudKit Schema Language, list-type and primitive-type (`LIST \"<\" primitive-type \">\"`, `[ ENCRYPTED ] { BYTES | ... }`).")
    public static let invalidName = RuleInfo(code: "CK211", name: "ckdb-invalid-name", summary: "An empty quoted name.", defaultSeverity: .error, source: language)

    // Writing (`ckschema export --format ckdb`).
    public static let notExpressible = RuleInfo(code: "CK220", name: "ckdb-not-expressible", summary: "Something the schema says that the CloudKit Schema Language cannot say (zones, databases, queries, deprecation, reference targets, descriptions, the container); the export leaves it out and says so.", defaultSeverity: .warning, source: language)
    public static let encryptedIndexDropped = RuleInfo(code: "CK221", name: "ckdb-encrypted-index-dropped", summary: "An encrypted field with an index, or ENCRYPTED on a type that cannot be encrypted: the export writes what cktool accepts and says what it left out.", defaultSeverity: .warning, source: "CKRecord `encryptedValues`; CloudKit Schema Language, primitive-type.")
    public static let usersAdded = RuleInfo(code: "CK222", name: "ckdb-users-added", summary: "The schema has no Users record type; the export adds cktool's default one because cktool import-schema replaces the whole schema.", defaultSeverity: .note, source: "`cktool import-schema` (replaces the development schema); cktool's export of an empty container (`apple__sample-cloudkit-tooling__CKTool-JS_travis-ci_schemas_empty.ckdb`).")
    public static let merged = RuleInfo(code: "CK224", name: "ckdb-import-merged", summary: "`import FILE.ckdb -o SCHEMA.yaml` onto an existing YAML schema merges: what the .ckdb cannot hold (container, zones, requires, queries, descriptions, deprecations, reference targets, comments) is kept from the file, and the note says what; a warning names what the .ckdb no longer has.", defaultSeverity: .note, source: language)
    public static let unwritableName = RuleInfo(code: "CK223", name: "ckdb-unwritable-name", summary: "A name that contains a double quote or a line break cannot be written in the CloudKit Schema Language.", defaultSeverity: .error, source: language)

    public static let all: [RuleInfo] = [
        syntax, unknownType, unterminated, duplicateField, duplicateRecordType, unknownRole,
        duplicateRole, invalidCharacter, systemField, encryption, invalidName,
        notExpressible, encryptedIndexDropped, usersAdded, merged, unwritableName,
    ]
}
