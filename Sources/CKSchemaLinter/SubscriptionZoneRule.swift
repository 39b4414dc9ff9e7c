import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

/// A zone subscription watches a custom zone that can fetch changes.
///
/// Source: CKRecordZoneSubscription (developer.apple.com/documentation/cloudkit/ckrecordzonesubscription):
/// "zoneID: the zone to watch"; CKRecordZone.Capabilities.fetchChanges ("the zone supports
/// CKFetchRecordZoneChangesOperation"); the default zone cannot fetch changes.
struct SubscriptionZoneRule: LintRule {
    static let info = RuleInfo(
        code: "CK713", name: "subscription-zone",
        summary: "A zone subscription names no zone, the default zone, or a zone without the fetchChanges capability.",
        defaultSeverity: .error,
        source: "CKRecordZoneSubscription; CKRecordZone.Capabilities.fetchChanges; the default zone cannot fetch changes")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for s in schema.subscriptions where s.kind == .zone {
            guard let z = s.zone, z != Zone.defaultZoneName else {
                findings.append(LintFinding("zone subscription '\(s.id)' watches \(s.zone == nil ? "no zone" : "the default zone"); CloudKit's zone subscriptions need a custom zone",
                                            at: s.origin, fix: s.spelling == .cloudKit ? CodeFix.customZone(schema) : "set 'zone:' to a custom zone with the fetchChanges capability"))
                continue
            }
            if let zone = schema.zone(named: z), !zone.capabilities.contains(.fetchChanges) {
                findings.append(LintFinding("zone subscription '\(s.id)' watches zone '\(z)', which lacks the fetchChanges capability",
                                            at: s.origin, fix: "add fetchChanges to the capabilities of zone '\(z)'"))
            }
        }
    }
}
