import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

/// Desired keys are fields a notification can carry: not assets (a push payload carries no
/// file), not encrypted (the server cannot read them to put them in the payload).
///
/// Source: CKSubscription.NotificationInfo.desiredKeys
/// (developer.apple.com/documentation/cloudkit/cksubscription/notificationinfo/desiredkeys) and
/// CKQueryNotification.recordFields ("CloudKit retrieves the values for each of those keys from the
/// record"; push payloads have a size limit); CKRecord.encryptedValues ("the server cannot read").
struct SubscriptionDesiredKeysRule: LintRule {
    static let info = RuleInfo(
        code: "CK711", name: "subscription-desired-key",
        summary: "A subscription's desired key is an asset or an encrypted field, which a notification cannot carry, or is listed twice.",
        defaultSeverity: .error,
        source: "CKSubscription.NotificationInfo.desiredKeys; CKQueryNotification.recordFields (values retrieved from the record; push payloads have a size limit); CKRecord.encryptedValues (the server cannot read them)")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
        for s in schema.subscriptions {
            var seen = Set<String>()
            for key in s.desiredKeys {
                if !seen.insert(key).inserted {
                    findings.append(LintFinding("subscription '\(s.id)' lists desired key '\(key)' twice", at: s.origin, fix: "list it once"))
                }
                let fields = s.recordType.flatMap { types[$0] }.map { [$0.field(named: key)].compactMap { $0 } }
                    ?? schema.recordTypes.compactMap { $0.field(named: key) }
                if let f = fields.first(where: { $0.type.primitive == .asset }) {
                    findings.append(LintFinding("subscription '\(s.id)' desires '\(key)', an \(f.type.description) field: a notification cannot carry an asset",
                                                at: s.origin, fix: "remove it from desiredKeys and fetch the record when the notification arrives"))
                } else if fields.contains(where: \.isEncrypted) {
                    findings.append(LintFinding("subscription '\(s.id)' desires '\(key)', an encrypted field: the server cannot read it to put it in a notification",
                                                at: s.origin, fix: "remove it from desiredKeys and fetch the record when the notification arrives"))
                }
            }
        }
    }
}
