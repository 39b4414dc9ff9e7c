import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `records delete`: deletes records by name, as CKModifyRecordsOperation's recordIDsToDelete,
/// in one transaction; the environment's subscriptions see the deletions.
///
/// Deleting a record deletes, in the same transaction, every record of its zone that holds a
/// reference to it with the `deleteSelf` action, and so on from those (issue 32 point 7), as
/// CloudKit does: "deleteSelf: the delete action for referenced records: deleting a record
/// also deletes any records that contain that record in a reference field"
/// (Apple, CKRecord.Reference.Action, https://developer.apple.com/documentation/cloudkit/ckrecord/reference/action).
/// References never cross zones, so the cascade stays in the zone. Each record is deleted once,
/// so a cycle of references terminates; the change log and the notifications show each one.
public enum RecordDeleter {
    /// A record deleted because it holds a `deleteSelf` reference to a record deleted before it.
    public struct Cascade: Sendable, Hashable {
        /// The record deleted.
        public var name: String
        /// The record its `deleteSelf` reference points at.
        public var target: String
    }

    public struct Result: Sendable {
        public var deleted = 0
        /// Names that were not found (CloudKit: CKError.unknownItem for each).
        public var diagnostics: [Diagnostic] = []
        /// The records the named ones took with them, in the order they were deleted.
        public var cascaded: [Cascade] = []
        /// The records deleted (or, in a dry run, that would be), in order: the named ones
        /// that exist, then those they took with them.
        public var names: [String] = []
        /// True when nothing was written (`dryRun`): `deleted` and `cascaded` say what would be.
        public var dryRun = false
    }

    public static let notFound = RuleInfo(
        code: "CK740", name: "record-not-found",
        summary: "A record to delete does not exist in the zone (CKError.unknownItem).",
        defaultSeverity: .error, source: "CKModifyRecordsOperation recordIDsToDelete; CKError.Code.unknownItem (developer.apple.com/documentation/cloudkit/ckerror/code/unknownitem)")

    /// Thrown inside the transaction of a dry run, so that it rolls back.
    private struct RollBack: Error {}

    /// - Parameter dryRun: compute everything (the not-found names, the cascade) in the
    ///   transaction, then roll it back: `records delete --dry-run`.
    public static func delete(names: [String], zone: String, from store: Store, environment env: Environment, dryRun: Bool = false) throws(InputError) -> Result {
        let schema = try store.schema(env)
        if zone != Zone.defaultZoneName, schema.zone(named: zone) == nil {
            throw InputError(Diagnostic(rule: RuntimeRules.zoneNotFound, "Zone '\(ControlCharacters.escaped(zone))' does not exist in the \(env.rawValue) environment", at: nil,
                                    fix: "zones: " + ([Zone.defaultZoneName] + schema.zones.map(\.name)).joined(separator: ", ")))
        }
        var result = Result()
        result.dryRun = dryRun
        try store.guarded("delete records") {
            do {
                try store.db.transaction {
                    // Who refers to whom with deleteSelf in this zone: target -> referrers, read once.
                    var referrers: [String: [String]] = [:]
                    try store.deleteSelfReferences(env: env) { z, referrer, target, _ in
                        if z == zone { referrers[target, default: []].append(referrer) }
                    }
                    // The named records that exist, then, breadth first, the records that refer
                    // to a record deleted: each once (a cycle ends where it began).
                    var gone = Set<String>()
                    var deleting: [String] = []
                    for name in names where !gone.contains(name) {
                        if try store.withRecordFields(env: env, zone: zone, name: name, { _ in () }) != nil {
                            gone.insert(name)
                            deleting.append(name)
                        } else {
                            result.diagnostics.append(Diagnostic(rule: notFound, "Record not found: \(JSONValue.string(name).text) in zone '\(ControlCharacters.escaped(zone))'", at: nil,
                                                                 fix: "check the record name and --zone"))
                        }
                    }
                    var next = 0
                    while next < deleting.count {
                        let target = deleting[next]
                        next += 1
                        for referrer in referrers[target, default: []].sorted() where gone.insert(referrer).inserted {
                            deleting.append(referrer)
                            result.cascaded.append(Cascade(name: referrer, target: target))
                        }
                    }
                    let recorder = try NotificationRecorder(store: store, env: env, schema: schema)
                    let keys = deleting.map { NotificationRecorder.Key(zone: zone, name: $0) }
                    let before = try recorder?.states(keys) ?? [:]
                    for name in deleting {
                        if try store.deleteRecord(env: env, zone: zone, name: name) { result.deleted += 1 }
                    }
                    result.names = deleting
                    try recorder?.record(before: before, keys: keys)
                    if dryRun { throw RollBack() }
                }
            } catch is RollBack {}
        }
        return result
    }
}

/// `ckschema notifications`: the notifications the store recorded, oldest first.
public enum NotificationLog {
    /// Writes the environment's notifications after sequence number `since` to `sink`, each with
    /// its `sequence` first. Returns how many.
    @discardableResult
    public static func read(store: Store, environment env: Environment, since: Int64 = 0, format: RecordLineFormat = .ndjson,
                            sink: (String) throws -> Void) throws(InputError) -> Int {
        try store.guarded("read notifications") {
            var n = 0
            try store.notifications(env: env, since: since) { seq, bytes in
                let body = try JSONValue.parse(bytes)
                let line = JSONValue.object([("sequence", .int(seq))] + (body.objectValue ?? []))
                switch format {
                case .ndjson: try sink(line.text + "\n")
                case .text:
                    var parts = ["\(seq)", body["subscriptionID"].map(\.text) ?? "", body["queryNotificationReason"]?.stringValue ?? body["notificationType"]?.stringValue ?? ""]
                    if let id = body["recordID"] { parts.append((id["recordName"].map(\.text) ?? "") + " in " + (id["zoneName"].map(\.text) ?? "")) }
                    if let z = body["recordZoneID"]?["zoneName"] { parts.append("zone " + z.text) }
                    try sink(parts.joined(separator: " ") + "\n")
                }
                n += 1
            }
            return n
        }
    }
}
