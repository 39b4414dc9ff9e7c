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
        source: "CKQuerySubscription (developer.apple.com/documentation/cloudkit/ckquerysubscription); CKSubscription.NotificationInfo.desiredKeys; CKRecordZoneSubscription")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for s in schema.subscriptions {
            var type: RecordType?
            if let name = s.recordType {
                type = types[name]
                if type == nil {
                    findings.append(LintFinding("subscription '\(s.id)' names record type '\(name)', which the schema does not define\(Suggest.phrase(for: name, in: schema.recordTypes.map(\.name)))",
                                                at: s.origin, fix: "correct 'recordType:' or define the record type"))
                }
            } else if s.kind == .query {
                findings.append(LintFinding("query subscription '\(s.id)' has no 'recordType' (CKQuerySubscription watches one record type)",
                                            at: s.origin, fix: "add 'recordType: <type>'"))
            }
            if let z = s.zone, z != Zone.defaultZoneName, schema.zone(named: z) == nil {
                findings.append(LintFinding("subscription '\(s.id)' names zone '\(z)', which the schema does not define\(Suggest.phrase(for: z, in: schema.zones.map(\.name)))",
                                            at: s.origin, fix: "correct 'zone:' or declare the zone under 'zones:'"))
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
        source: "CKSubscription.NotificationInfo.desiredKeys; CKQueryNotification.recordFields; CKRecord.encryptedValues")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
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
        source: "CKNotificationInfo.desiredKeys (\"limited to 3 keys\", quoted in forums.developer.apple.com/thread/114339); CKQueryNotification (desired keys are dropped first)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for s in schema.subscriptions where Set(s.desiredKeys).count > Self.limit {
            findings.append(LintFinding("subscription '\(s.id)' desires \(Set(s.desiredKeys).count) keys; a notification carries at most \(Self.limit)",
                                        at: s.origin, fix: "keep the \(Self.limit) keys the app needs at once and fetch the record for the rest"))
        }
    }
}

/// Each kind of subscription lives only in the databases Apple allows it in.
///
/// Source: CKQuerySubscription (query subscriptions are not supported in the shared database);
/// CKRecordZoneSubscription (developer.apple.com/documentation/cloudkit/ckrecordzonesubscription:
/// not in the shared database; custom zones exist only in the private database);
/// CKDatabaseSubscription (developer.apple.com/documentation/cloudkit/ckdatabasesubscription:
/// not in the public database). A query subscription in another database than its record type's
/// never fires (CKDatabase: each database holds its own records).
struct SubscriptionDatabaseRule: LintRule {
    static let info = RuleInfo(
        code: "CK712", name: "subscription-wrong-database",
        summary: "A query subscription in the shared database, a zone subscription outside the private database, a database subscription in the public database, or a query subscription in another database than its record type's.",
        defaultSeverity: .error,
        source: "CKQuerySubscription; CKRecordZoneSubscription; CKDatabaseSubscription (developer.apple.com/documentation/cloudkit)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        let types = schema.recordTypesByName
        for s in schema.subscriptions {
            switch (s.kind, s.database) {
            case (.query, .shared):
                findings.append(LintFinding("query subscription '\(s.id)' is in the shared database, where CloudKit does not support query subscriptions",
                                            at: s.origin, fix: "use a database subscription in the shared database, or a query subscription in the private or public database"))
            case (.zone, .shared), (.zone, .public):
                findings.append(LintFinding("zone subscription '\(s.id)' is in the \(s.database.rawValue) database; CKRecordZoneSubscription works only on custom zones of the private database",
                                            at: s.origin, fix: s.database == .shared ? "use a database subscription for the shared database" : "use a query subscription in the public database"))
            case (.database, .public):
                findings.append(LintFinding("database subscription '\(s.id)' is in the public database, where CloudKit does not support database subscriptions",
                                            at: s.origin, fix: "use query subscriptions in the public database"))
            case (.query, _):
                if let t = s.recordType.flatMap({ types[$0] }), let db = schema.database(of: t), db != s.database {
                    findings.append(LintFinding("query subscription '\(s.id)' is in the \(s.database.rawValue) database, but '\(t.name)' lives in the \(db.rawValue) database",
                                                at: s.origin, fix: "set the subscription's database to \(db.rawValue)"))
                }
            default: break
            }
        }
    }
}

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
        source: "CKRecordZoneSubscription; CKRecordZone.Capabilities.fetchChanges (developer.apple.com/documentation/cloudkit)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for s in schema.subscriptions where s.kind == .zone {
            guard let z = s.zone, z != Zone.defaultZoneName else {
                findings.append(LintFinding("zone subscription '\(s.id)' watches \(s.zone == nil ? "no zone" : "the default zone"); CloudKit's zone subscriptions need a custom zone",
                                            at: s.origin, fix: "set 'zone:' to a custom zone with the fetchChanges capability"))
                continue
            }
            if let zone = schema.zone(named: z), !zone.capabilities.contains(.fetchChanges) {
                findings.append(LintFinding("zone subscription '\(s.id)' watches zone '\(z)', which lacks the fetchChanges capability",
                                            at: s.origin, fix: "add fetchChanges to the capabilities of zone '\(z)'"))
            }
        }
    }
}

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
        source: "CKQuerySubscription.Options (developer.apple.com/documentation/cloudkit/ckquerysubscription/options)")

    func check(_ schema: Schema, into findings: inout [LintFinding]) {
        for s in schema.subscriptions where s.kind == .query && s.firesOn.isEmpty {
            findings.append(LintFinding("query subscription '\(s.id)' fires on nothing", at: s.origin,
                                        fix: "add 'firesOn: [create, update, delete]' (or the events the app needs)"))
        }
    }
}
