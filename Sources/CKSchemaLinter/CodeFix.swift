import CKSchemaModel

/// The fix notes of a query or subscription that `scan` found in app code (its `spelling` is
/// `.cloudKit`): they say what to change in the Swift, and in the schema's own language
/// (`.ckdb` declarations, or YAML keys), never a declared query's YAML keys (`zone:`,
/// `recordType:`, `firesOn:`), which app code does not have (issue 31, point 11).
enum CodeFix {
    /// The property that opens database `db`: `container.publicCloudDatabase`.
    static func database(_ db: Database) -> String { "container.\(db.rawValue)CloudDatabase" }

    /// How to add record type `name` to the schema: `add RECORD TYPE Note (...) to the schema`
    /// (`.ckdb`), `define 'Note' under 'recordTypes:'` (YAML).
    static func defineRecordType(_ name: String, _ notation: SchemaNotation) -> String {
        guard notation == .ckdb else { return "define '\(name)' under 'recordTypes:'" }
        return "add RECORD TYPE \(CloudKitRules.isValidName(name) ? name : "\"\(name)\"") to the schema"
    }

    /// A zone subscription on no zone or the default zone: the zone comes from the code. A
    /// `.ckdb` holds no zones, so there is nothing to change in it; a YAML schema that names
    /// zones declares the custom zone with fetchChanges.
    static func customZone(_ schema: Schema) -> String {
        let code = "give CKRecordZoneSubscription(zoneID:) the ID of a custom zone the app creates (CKRecordZone(zoneName:), saved before the subscription)"
        switch schema.notation.value {
        case .ckdb: return code + "; a .ckdb holds no zones, so the schema does not change"
        case .yaml: return schema.zones.isEmpty ? code : code + ", declared under 'zones:' with the fetchChanges capability"
        }
    }
}
