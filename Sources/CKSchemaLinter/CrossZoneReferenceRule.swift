import CKSchemaModel

/// A reference field on a record type of a custom zone whose target type lives in another
/// zone: no record can ever hold such a reference, because a reference and its target are in
/// one zone. `validate` refuses each record that tries (CK408); this is the same fact, found
/// in the schema before any record exists.
///
/// Source: CKRecordZone ("the CKRecord.Reference class doesn't support cross-zone linking, so
/// each reference object must point to a record in the same zone as the current record");
/// CKRecord.Reference init(recordID:action:). Only where both zones are known: a type in the
/// default zone with no `zone:` says nothing of where its records go, and a `.ckdb` has no zones.
struct CrossZoneReferenceRule: LintRule {
    static let info = RuleInfo(
        code: "CK125", name: "reference-cross-zone-type",
        summary: "A reference field on a record type in a custom zone names a target type that lives in another zone; CloudKit references stay within one zone.",
        defaultSeverity: .error,
        source: "CKRecordZone: “the CKRecord.Reference class doesn't support cross-zone linking, so each reference object must point to a record in the same zone as the current record” (developer.apple.com/documentation/cloudkit/ckrecordzone); CKRecord.Reference init(recordID:action:).")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for t in schema.recordTypes {
            guard let zone = t.zone, zone != Zone.defaultZoneName else { continue }
            // By index: a field is copied only when it is reported (copying each cost lint of a
            // 2,000-type schema 13 M instructions).
            for i in t.fields.indices where t.fields[i].type.primitive == .reference {
                guard let target = t.fields[i].referenceTarget, let other = types[target] else { continue }
                let otherZone = other.zone ?? Zone.defaultZoneName
                guard otherZone != zone else { continue }
                let f = t.fields[i]
                findings.append(LintFinding(
                    "field '\(t.name).\(f.name)' references '\(target)', which lives in zone '\(otherZone)', but '\(t.name)' lives in zone '\(zone)'; a CloudKit reference cannot point into another zone",
                    at: f.origin,
                    fix: "put '\(target)' in zone '\(zone)', or store the target's record name in a string field instead of a reference"))
            }
        }
    }
}
