import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

/// A query subscription fires on at least one event.
///
/// Source: CKQuerySubscription.Options (developer.apple.com/documentation/cloudkit/ckquerysubscription/options):
/// firesOnRecordCreation, firesOnRecordUpdate, firesOnRecordDeletion; CloudKit refuses a
/// subscription with none ("at least one of the firesOn options").
struct SubscriptionFiresOnRule: LintRule {
    static let info = RuleInfo(
        code: "CK714", name: "subscription-fires-on",
        summary: "A query subscription's firesOn is empty or missing.",
        defaultSeverity: .error,
        source: "CKQuerySubscription.Options (firesOnRecordCreation, firesOnRecordUpdate, firesOnRecordDeletion)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for s in schema.subscriptions where s.kind == .query && s.firesOn.isEmpty {
            findings.append(LintFinding("query subscription '\(s.id)' fires on nothing", at: s.origin,
                                        fix: s.spelling == .cloudKit ? "pass options: [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion] (or the events the app needs) to CKQuerySubscription"
                                            : "add 'firesOn: [create, update, delete]' (or the events the app needs)"))
        }
    }
}
