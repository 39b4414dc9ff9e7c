import CKSchemaModel

/// What a declared subscription needs from the schema (CK710-CK714). A subscription CloudKit
/// refuses fails when the app saves it (`CKModifySubscriptionsOperation`), at run time, on
/// users' devices; these rules move the refusal to CI.

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
        source: "CKQuerySubscription (not in the shared database); CKRecordZoneSubscription (not in the shared database; custom zones live in the private database); CKDatabaseSubscription (not in the public database); CKDatabase")

    func check(_ context: LintContext, into findings: inout [LintFinding]) {
        let schema = context.schema
        let types = context.recordTypesByName
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
                                                at: s.origin, fix: s.spelling == .cloudKit ? "save the subscription to \(CodeFix.database(db))" : "set the subscription's database to \(db.rawValue)"))
                }
            default: break
            }
        }
    }
}
