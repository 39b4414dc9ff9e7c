import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

/// The record type, zone and desired keys a subscription names exist.
///
/// Source: CKQuerySubscription (developer.apple.com/documentation/cloudkit/ckquerysubscription):
/// "recordType: the record type that the subscription queries"; CKSubscription.NotificationInfo
/// (developer.apple.com/documentation/cloudkit/cksubscription/notificationinfo) desiredKeys: "the
/// names of fields to include"; CKRecordZoneSubscription (zoneID of an existing zone).
struct SubscriptionUnknownNameRule: LintRule {
    static let info = RuleInfo(
        code: "CK710", name: "subscription-unknown-name",
        summary: "A subscription names a record type, zone or desired key the schema does not define, or a query subscription has no record type.",
        defaultSeverity: .error,
        source: "CKQuerySubscription (developer.apple.com/documentation/cloudkit/ckquerysubscription) recordType; CKSubscription.NotificationInfo.desiredKeys; CKRecordZoneSubscription zoneID")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for s in schema.subscriptions {
            var type: RecordType?
            if let name = s.recordType {
                type = types[name]
                if type == nil {
                    findings.append(LintFinding("subscription '\(s.id)' names record type '\(name)', which the schema does not define\(Suggest.phrase(for: name, in: schema.recordTypes.map(\.name)))",
                                                at: s.origin, fix: s.spelling == .cloudKit ? "correct the record type the code names, or \(CodeFix.defineRecordType(name, schema.notation.value))" : "correct 'recordType:' or define the record type"))
                }
            } else if s.kind == .query {
                findings.append(LintFinding("query subscription '\(s.id)' has no 'recordType' (CKQuerySubscription watches one record type)",
                                            at: s.origin, fix: "add 'recordType: <type>'"))
            }
            if let z = s.zone, z != Zone.defaultZoneName, schema.zone(named: z) == nil {
                findings.append(LintFinding("subscription '\(s.id)' names zone '\(z)', which the schema does not define\(Suggest.phrase(for: z, in: schema.zones.map(\.name)))",
                                            at: s.origin, fix: s.spelling == .cloudKit ? "correct the name in CKRecordZone.ID(zoneName:), or declare zone '\(z)' under 'zones:'" : "correct 'zone:' or declare the zone under 'zones:'"))
            }
            for key in s.desiredKeys {
                let known: Bool
                if let type { known = type.field(named: key) != nil } else if s.recordType == nil {
                    known = schema.recordTypes.contains { $0.field(named: key) != nil }
                } else { continue }
                if !known {
                    let candidates = type?.fields.map(\.name) ?? schema.recordTypes.flatMap { $0.fields.map(\.name) }
                    findings.append(LintFinding("subscription '\(s.id)' desires key '\(key)', which \(type.map { "'\($0.name)'" } ?? "no record type") does not have\(Suggest.phrase(for: key, in: candidates))",
                                                at: s.origin, fix: "correct the key or add the field"))
                }
            }
        }
    }
}
