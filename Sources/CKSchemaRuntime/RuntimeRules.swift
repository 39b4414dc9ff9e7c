import CKSchemaModel

/// The run-time codes (CK720-CK749): where CloudKit refuses a query or a zone-changes fetch,
/// and what `docs/rules.md` says of each. Predicate problems keep their CK700-CK704 codes.
public enum RuntimeRules {
    public static let unknownType = RuleInfo(
        code: "CK720", name: "query-unknown-type",
        summary: "A query names a record type the environment's schema does not have (CloudKit: \"Did not find record type\").",
        defaultSeverity: .error, source: "CKQuery (developer.apple.com/documentation/cloudkit/ckquery); CKError.unknownItem")
    public static let notSortable = RuleInfo(
        code: "CK721", name: "query-not-sortable",
        summary: "A query sorts on a field that is not sortable (CloudKit's words: Field 'x' is not marked sortable).",
        defaultSeverity: .error, source: "CKQuery.sortDescriptors (developer.apple.com/documentation/cloudkit/ckquery/sortdescriptors)")
    public static let zoneNotFound = RuleInfo(
        code: "CK722", name: "zone-not-found",
        summary: "A query or a changes fetch names a zone the environment does not have (CKError.zoneNotFound).",
        defaultSeverity: .error, source: "CKError.Code.zoneNotFound (developer.apple.com/documentation/cloudkit/ckerror/code/zonenotfound)")
    public static let otherZone = RuleInfo(
        code: "CK723", name: "query-other-zone",
        summary: "A query found nothing in the zone it ran in, while the store holds records of that type in another zone: a query runs in one zone only.",
        defaultSeverity: .note, source: "CKQueryOperation.zoneID: \"the ID of the record zone that contains the records to search\" (developer.apple.com/documentation/cloudkit/ckqueryoperation/zoneid)")
    public static let changesDefaultZone = RuleInfo(
        code: "CK730", name: "changes-default-zone",
        summary: "Zone changes are fetched from the default zone, which cannot fetch changes.",
        defaultSeverity: .error, source: "CKFetchRecordZoneChangesOperation; CKRecordZone.default() has no fetchChanges capability (developer.apple.com/documentation/cloudkit/ckrecordzone/capabilities)")
    public static let changesNotSupported = RuleInfo(
        code: "CK731", name: "changes-not-supported",
        summary: "Zone changes are fetched from a zone without the fetchChanges capability.",
        defaultSeverity: .error, source: "CKRecordZone.Capabilities.fetchChanges (developer.apple.com/documentation/cloudkit/ckrecordzone/capabilities/fetchchanges)")
    public static let badToken = RuleInfo(
        code: "CK732", name: "change-token-invalid",
        summary: "A change token is not one this store issued, or was issued for another zone, environment or store (exit 2).",
        defaultSeverity: .error, source: "CKServerChangeToken (opaque, per zone); CKError.changeTokenExpired")

    public static let all: [RuleInfo] = [unknownType, notSortable, zoneNotFound, otherZone, changesDefaultZone, changesNotSupported, badToken]
}
