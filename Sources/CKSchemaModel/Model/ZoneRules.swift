/// The rule both the app scan and record validation apply to where a record is saved: one
/// code (CK904) whether the record is written by the app's code or sits in a records file.
public enum ZoneRules {
    /// A record saved outside the zone its type's schema names (YAML `zone:`).
    ///
    /// Source: CKRecordZone (developer.apple.com/documentation/cloudkit/ckrecordzone): a
    /// record lives in the zone of its CKRecord.ID; the schema's `zone:` of a record type says
    /// which zone that is, and a record saved elsewhere is invisible to the queries, fetches
    /// and subscriptions of its zone.
    public static let wrongZone = RuleInfo(code: "CK904", name: "scan-wrong-zone", summary: "A record (written by the app's code, or in a records file given to validate or records import) is saved outside the zone its type's schema names: the default zone though the schema puts the type in a custom zone, another zone, or a custom zone though the schema keeps it in the default zone.", defaultSeverity: .error, source: "CKRecordZone (developer.apple.com/documentation/cloudkit/ckrecordzone); the schema's 'zone:' of a record type")

    /// Whether a schema says where records live: zones are declared, or a type names one.
    /// A `.ckdb` export says nothing of zones, and then no zone is checked.
    public static func namesZones(_ schema: Schema) -> Bool {
        !schema.zones.isEmpty || schema.recordTypes.contains { $0.zone != nil }
    }
}
