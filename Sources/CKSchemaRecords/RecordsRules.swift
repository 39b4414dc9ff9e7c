import CKSchemaModel

/// The record validation rules' codes (CK4xx) and what `docs/rules.md` says of each.
public enum RecordsRules {
    // Sources, cited once here and in docs/rules.md:
    // - CKRecord.ID, init(recordName:): "must contain only ASCII characters, must not exceed
    //   255 characters, and must not start with an underscore".
    // - CKRecord: "the server associates that type with the key for all records of the same type"
    //   (development grows the schema; production refuses unknown keys).
    // - CKError.Code.limitExceeded: "400 items (records or shares) per operation, 2 MB per
    //   request (not counting asset sizes)".
    // - CloudKit Web Services Reference, "Types and Dictionaries" (Record Field Dictionary,
    //   Reference Dictionary, Location Dictionary).
    // - CKRecord.encryptedValues; CKTool JS "Field Values" (CKDBRecordFieldEncrypted*Value).
    // - CloudKit Web Services Reference, "Data Size Limits": "Maximum record size (not
    //   including Asset fields): 1 MB", "Maximum file size of an Asset field: 50 MB",
    //   "Maximum number of operations in a request: 200", "Maximum number of source
    //   references to a single target where the action is delete self: 750".
    // - CKRecord.Reference: at most 750 deleteSelf references to one target; "any attempt to
    //   exceed it results in an error from the server".

    public static let syntax = RuleInfo(code: "CK400", name: "record-syntax", summary: "A record is not well-formed JSON or YAML (truncated, invalid UTF-8, NaN, too deep, too long); reported at its line, validation continues with the next.", defaultSeverity: .error, source: "RFC 8259 (JSON) and the record formats in docs/records.md (not a CloudKit rule)")
    public static let unknownRecordType = RuleInfo(code: "CK401", name: "unknown-record-type", summary: "The record's type is not in the schema.", defaultSeverity: .error, source: "CKRecord, \"During development, you can add new keys and values at any time\"; production refuses unknown types (developer.apple.com/documentation/cloudkit/ckrecord)")
    public static let unknownFieldProduction = RuleInfo(code: "CK402", name: "unknown-field-production", summary: "In production, a field the schema does not have: CloudKit answers `Cannot create or modify field 'x' in record 'T' in production schema`.", defaultSeverity: .error, source: "CKRecord (the schema is fixed once deployed to production); Deploying an iCloud Container's Schema (developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema)")
    public static let wrongValueType = RuleInfo(code: "CK403", name: "wrong-value-type", summary: "A value does not fit the field's type (a string for an int64, an integer out of range, bad base64, a latitude beyond 90).", defaultSeverity: .error, source: "CloudKit Web Services Reference, Types and Dictionaries: CKValue, Location Dictionary, Reference Dictionary (developer.apple.com/library/archive/documentation/DataManagement/Conceptual/CloudKitWebServicesReference/Types.html)")
    public static let wrongListElement = RuleInfo(code: "CK404", name: "wrong-list-element", summary: "A list field holds an element of the wrong type, or a single value where a list belongs.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Types and Dictionaries: List")
    public static let typeTagMismatch = RuleInfo(code: "CK405", name: "type-tag-mismatch", summary: "The value's declared `type` tag (`STRING`, `int64Type`, ...) disagrees with the schema's type for the field, or is not a tag at all.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Record Field Dictionary; CKTool JS, Field Values (developer.apple.com/documentation/cktooljs/field-values)")
    public static let encryptionMismatch = RuleInfo(code: "CK406", name: "encryption-mismatch", summary: "An encrypted field written in plaintext form, or a plaintext field written as encrypted.", defaultSeverity: .error, source: "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues); CKTool JS CKDBRecordFieldEncrypted*Value")
    public static let referenceTargetType = RuleInfo(code: "CK407", name: "reference-target-type", summary: "A reference points at a record of a type other than the one the schema names.", defaultSeverity: .error, source: "CKRecord.Reference (developer.apple.com/documentation/cloudkit/ckrecord/reference)")
    public static let referenceCrossZone = RuleInfo(code: "CK408", name: "reference-cross-zone", summary: "A reference (or parent) points into another zone than the record's own.", defaultSeverity: .error, source: "CKRecord.Reference: a reference and its target must be in the same zone (developer.apple.com/documentation/cloudkit/ckrecord/reference/init(recordid:action:))")
    public static let recordName = RuleInfo(code: "CK409", name: "invalid-record-name", summary: "A record name that is empty, not ASCII, longer than 255 characters, or starts with an underscore.", defaultSeverity: .error, source: "CKRecord.ID init(recordName:): \"must contain only ASCII characters, must not exceed 255 characters, and must not start with an underscore\" (developer.apple.com/documentation/cloudkit/ckrecord/id/init(recordname:))")
    public static let recordTooLarge = RuleInfo(code: "CK410", name: "record-too-large", summary: "A record's non-asset data exceeds 1 MB.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Data Size Limits: \"Maximum record size (not including Asset fields): 1 MB\" (developer.apple.com/library/archive/documentation/DataManagement/Conceptual/CloudKitWebServicesReference/PropertyMetrics.html)")
    public static let deprecatedWritten = RuleInfo(code: "CK411", name: "deprecated-written", summary: "A record writes a deprecated field or is of a deprecated record type.", defaultSeverity: .warning, source: "the schema format (deprecation is how ckschema retires what production cannot delete)")
    public static let batchTooManyItems = RuleInfo(code: "CK412", name: "batch-too-many-items", summary: "A batch (`--batch N`) holds more than 400 records: the modify operation fails with limitExceeded.", defaultSeverity: .error, source: "CKError.Code.limitExceeded: \"400 items (records or shares) per operation\" (developer.apple.com/documentation/cloudkit/ckerror/code/limitexceeded)")
    public static let batchTooLarge = RuleInfo(code: "CK413", name: "batch-too-large", summary: "A batch's non-asset data exceeds 2 MB: the request fails with limitExceeded.", defaultSeverity: .error, source: "CKError.Code.limitExceeded: \"2 MB per request (not counting asset sizes)\"")
    public static let parentNotFound = RuleInfo(code: "CK414", name: "parent-not-found", summary: "A `parent` reference names a record that is neither in its batch nor in the given files.", defaultSeverity: .error, source: "CKRecord.parent / setParent(_:) (developer.apple.com/documentation/cloudkit/ckrecord/parent)")
    public static let recordShape = RuleInfo(code: "CK415", name: "record-shape", summary: "A record that is not a mapping, has no `recordType`, or whose `fields` is not a mapping.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Record Dictionary")
    public static let inferredField = RuleInfo(code: "CK416", name: "inferred-field", summary: "In development, a field (or record type) the schema does not have: CloudKit would add it; `--infer` prints the change.", defaultSeverity: .note, source: "CKRecord: \"The first time you set a value for a key and save the record, the server associates that type with the key\"")
    public static let inferConflict = RuleInfo(code: "CK417", name: "infer-conflict", summary: "In development, a new field written with two different types: the first write fixes its type and CloudKit refuses the other.", defaultSeverity: .error, source: "CKRecord (the type is fixed by the first save)")
    public static let deleteSelfLimit = RuleInfo(code: "CK418", name: "delete-self-limit", summary: "More than 750 references with the deleteSelf action point at one target record: the save that exceeds it fails.", defaultSeverity: .error, source: "CKRecord.Reference: at most 750 deleteSelf references to one target, \"any attempt to exceed it results in an error from the server\"; CloudKit Web Services Reference, Data Size Limits: \"Maximum number of source references to a single target where the action is delete self: 750\" (developer.apple.com/documentation/cloudkit/ckrecord/reference)")
    public static let assetTooLarge = RuleInfo(code: "CK419", name: "asset-too-large", summary: "An asset field names a local file larger than 50 MB: CloudKit refuses the upload.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Data Size Limits: \"Maximum file size of an Asset field: 50 MB\" (developer.apple.com/library/archive/documentation/DataManagement/Conceptual/CloudKitWebServicesReference/PropertyMetrics.html)")
    public static let webServicesOperations = RuleInfo(code: "CK420", name: "web-services-operations", summary: "A batch (`--batch N`) of records in the Web Services shape holds more than 200: one records/modify request takes at most 200 operations.", defaultSeverity: .error, source: "CloudKit Web Services Reference, Data Size Limits: \"Maximum number of operations in a request: 200\" (developer.apple.com/library/archive/documentation/DataManagement/Conceptual/CloudKitWebServicesReference/PropertyMetrics.html)")

    public static let all: [RuleInfo] = [
        syntax, unknownRecordType, unknownFieldProduction, wrongValueType, wrongListElement, typeTagMismatch,
        encryptionMismatch, referenceTargetType, referenceCrossZone, recordName, recordTooLarge,
        deprecatedWritten, batchTooManyItems, batchTooLarge, parentNotFound, recordShape, inferredField, inferConflict,
        deleteSelfLimit, assetTooLarge, webServicesOperations,
    ]
}
