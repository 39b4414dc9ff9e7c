import CKSchemaModel

/// Codes for input the tool cannot read: malformed YAML, a schema file that does
/// not follow `docs/schema-format.md`. These make the executable exit 2.
public enum InputRules {
    public static let unreadable = RuleInfo(code: "CK001", name: "unreadable-file", summary: "A file could not be read, or is too large.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let unwritable = RuleInfo(code: "CK007", name: "unwritable-file", summary: "An output file (a schema, a plan, a migration, the sum file, an export) could not be written; nothing was half-written.", defaultSeverity: .error, source: "the tool's own contract (not a CloudKit rule).")
    public static let yamlSyntax = RuleInfo(code: "CK002", name: "yaml-syntax", summary: "YAML syntax error (libyaml's own problem text), including tabs used for indentation.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let notUTF8 = RuleInfo(code: "CK003", name: "not-utf8", summary: "The file is not valid UTF-8.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let duplicateKey = RuleInfo(code: "CK004", name: "duplicate-key", summary: "A key appears twice in one mapping.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let aliasBomb = RuleInfo(code: "CK005", name: "alias-expansion", summary: "Aliases expand beyond the fixed bound (a billion-laughs file).", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let tooDeep = RuleInfo(code: "CK006", name: "nesting-too-deep", summary: "Nesting deeper than the fixed bound.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let wrongKind = RuleInfo(code: "CK010", name: "wrong-node-kind", summary: "A list where a mapping belongs, a mapping where a scalar belongs, or an empty document.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let unknownKey = RuleInfo(code: "CK011", name: "unknown-key", summary: "A key the schema format does not have (with a did-you-mean).", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let invalidValue = RuleInfo(code: "CK012", name: "invalid-value", summary: "A value the format does not allow: an unknown field type, index kind, database, capability, permission or version.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let missingKey = RuleInfo(code: "CK013", name: "missing-key", summary: "A required key is missing.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let duplicateDefinition = RuleInfo(code: "CK014", name: "duplicate-definition", summary: "A record type, zone or role is defined twice across the files of one schema source.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")
    public static let config = RuleInfo(code: "CK015", name: "config", summary: "ckschema.yaml is missing or malformed.", defaultSeverity: .error, source: "the schema format, docs/schema-format.md (not a CloudKit rule)")

    public static let folderSkipped = RuleInfo(code: "CK016", name: "folder-not-searched", summary: "A folder of the inputs was not searched: a link to a folder already searched, or to one outside the folder given.", defaultSeverity: .note, source: "the tool's own contract: each real folder is searched once, inside the folder given (issue 35 point 2; not a CloudKit rule)")

    public static let all: [RuleInfo] = [
        unreadable, folderSkipped, unwritable, yamlSyntax, notUTF8, duplicateKey, aliasBomb, tooDeep,
        wrongKind, unknownKey, invalidValue, missingKey, duplicateDefinition, config,
    ]
}
