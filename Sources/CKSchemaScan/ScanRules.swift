import CKSchemaModel

/// The codes `ckschema scan` reports for the app's own CloudKit calls (CK900-CK909). A query,
/// a predicate or a subscription found in the code is checked by the lint rules that check a
/// declared one (CK110, CK113, CK118, CK700-CK704, CK710-CK715): the same codes and messages.
public enum ScanRules {
    static let ckrecord = "CKRecord (developer.apple.com/documentation/cloudkit/ckrecord); the production server's errors \"Cannot create new type X in production schema\" and \"Cannot create or modify field 'x' in record 'Y' in production schema\""
    static let encrypted = "CKRecord.encryptedValues (developer.apple.com/documentation/cloudkit/ckrecord/encryptedvalues): an encrypted field is written and read only through encryptedValues"
    static let zones = "CKFetchRecordZoneChangesOperation, CKRecordZoneSubscription (developer.apple.com/documentation/cloudkit): fetching changes is supported only for custom zones (the server's \"AppDefaultZone does not support getChanges call\"); CKRecordZone.default() cannot be deleted"

    /// `CKRecord(recordType:)` of a type the schema does not define.
    public static let unknownRecordType = RuleInfo(code: "CK900", name: "scan-unknown-record-type", summary: "The app creates a record of a type the schema's environment does not define: production refuses the save.", defaultSeverity: .error, source: ckrecord)
    /// A field written or read that the record type does not have.
    public static let unknownField = RuleInfo(code: "CK901", name: "scan-unknown-field", summary: "The app writes or reads a field its record type does not have in the schema's environment: production refuses the write.", defaultSeverity: .error, source: ckrecord)
    /// A plaintext write to an encrypted field, or an `encryptedValues` write to a plaintext one.
    public static let encryption = RuleInfo(code: "CK902", name: "scan-encryption-mismatch", summary: "The app writes an encrypted field as plaintext (record[key]) or a plaintext field through encryptedValues.", defaultSeverity: .error, source: encrypted)
    /// `record[key] as? T` where T cannot be the field's type.
    public static let castMismatch = RuleInfo(code: "CK903", name: "scan-cast-mismatch", summary: "The app reads a field with 'as? T' where T cannot hold the field's type: the cast is always nil.", defaultSeverity: .warning, source: "CKRecordValue (developer.apple.com/documentation/cloudkit/ckrecordvalue): the Swift types of each field type")
    /// A record written to the default zone whose type the schema puts in a custom zone, or the reverse.
    public static let wrongZone = ZoneRules.wrongZone
    /// Zone changes fetched or subscribed to in the default zone.
    public static let defaultZoneChanges = RuleInfo(code: "CK905", name: "scan-default-zone-changes", summary: "The app fetches or subscribes to zone changes in the default zone (recordZoneChanges, CKFetchRecordZoneChangesOperation, CKRecordZoneSubscription): CloudKit supports them only in custom zones.", defaultSeverity: .error, source: zones)
    /// The default zone deleted.
    public static let defaultZoneDelete = RuleInfo(code: "CK906", name: "scan-default-zone-delete", summary: "The app deletes the default zone (deleteRecordZone, modifyRecordZones(deleting:), CKModifyRecordZonesOperation): CloudKit refuses it.", defaultSeverity: .error, source: zones)
    /// A CloudKit call whose record type, field, zone or database the scan could not resolve (scan --verbose).
    public static let notResolved = RuleInfo(code: "CK907", name: "scan-not-resolved", summary: "A CloudKit call whose record type, field, predicate or zone is not a literal, a constant, an enum case or a local the scan can follow: it is not checked (shown by scan --verbose).", defaultSeverity: .note, source: "ckschema's precision rule: a reader of app code reports only what it resolved")
    /// A declared query (`queries:`) no code of the app runs (scan --verbose).
    public static let declaredUnused = RuleInfo(code: "CK908", name: "scan-declared-query-not-run", summary: "A query declared in the schema's 'queries:' that no scanned CloudKit call runs on its record type (shown by scan --verbose; keep it if a server script or another platform runs it).", defaultSeverity: .note, source: "ckschema: 'queries:' is for what the code cannot show")
    /// A Swift file the scan cannot read (exit 2).
    public static let unreadable = RuleInfo(code: "CK909", name: "scan-unreadable", summary: "A path given to scan (or ckschema.yaml's 'code:') does not exist or holds no Swift file.", defaultSeverity: .error, source: "ckschema scan")

    public static let all: [RuleInfo] = [unknownRecordType, unknownField, encryption, castMismatch, wrongZone, defaultZoneChanges, defaultZoneDelete, notResolved, declaredUnused, unreadable]
}
