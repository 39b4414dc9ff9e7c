import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

/// At most three desired keys, each value cut to 100 characters in the push.
///
/// Source: CKNotificationInfo.desiredKeys as Apple documented it ("limited to 3 keys"; values
/// "may be truncated (to 100 characters) when added to the push notification"), quoted in
/// forums.developer.apple.com/thread/114339; today's CKQueryNotification page says CloudKit
/// drops desired keys first to keep the payload under the APNs limit. A warning: the app still
/// works, the keys beyond the limit just do not arrive.
struct SubscriptionDesiredKeyCountRule: LintRule {
    static let limit = 3
    static let info = RuleInfo(
        code: "CK715", name: "subscription-too-many-desired-keys",
        summary: "A subscription desires more than 3 keys; the push notification carries at most 3 (each cut to 100 characters).",
        defaultSeverity: .warning,
        source: "CKNotificationInfo.desiredKeys as Apple documented it (\"limited to 3 keys\"; values \"may be truncated (to 100 characters)\"), quoted in forums.developer.apple.com/thread/114339; CKQueryNotification (CloudKit drops desired keys first to keep the payload under the APNs limit)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        for s in schema.subscriptions where Set(s.desiredKeys).count > Self.limit {
            findings.append(LintFinding("subscription '\(s.id)' desires \(Set(s.desiredKeys).count) keys; a notification carries at most \(Self.limit)",
                                        at: s.origin, fix: "keep the \(Self.limit) keys the app needs at once and fetch the record for the rest"))
        }
    }
}
