import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `records delete`: deletes records by name, as CKModifyRecordsOperation's recordIDsToDelete,
/// in one transaction; the environment's subscriptions see the deletions.
public enum RecordDeleter {
    public struct Result: Sendable {
        public var deleted = 0
        /// Names that were not found (CloudKit: CKError.unknownItem for each).
        public var diagnostics: [Diagnostic] = []
    }

    public static let notFound = RuleInfo(
        code: "CK740", name: "record-not-found",
        summary: "A record to delete does not exist in the zone (CKError.unknownItem).",
        defaultSeverity: .error, source: "CKModifyRecordsOperation recordIDsToDelete; CKError.Code.unknownItem (developer.apple.com/documentation/cloudkit/ckerror/code/unknownitem)")

    public static func delete(names: [String], zone: String, from store: Store, environment env: Environment) throws(InputError) -> Result {
        let schema = try store.schema(env)
        if zone != Zone.defaultZoneName, schema.zone(named: zone) == nil {
            throw InputError(Diagnostic(rule: RuntimeRules.zoneNotFound, "Zone '\(ControlCharacters.escaped(zone))' does not exist in the \(env.rawValue) environment", at: nil,
                                    fix: "zones: " + ([Zone.defaultZoneName] + schema.zones.map(\.name)).joined(separator: ", ")))
        }
        var result = Result()
        try store.guarded("delete records") {
            try store.db.transaction {
                let recorder = try NotificationRecorder(store: store, env: env, schema: schema)
                let keys = names.map { NotificationRecorder.Key(zone: zone, name: $0) }
                let before = try recorder?.states(keys) ?? [:]
                for name in names {
                    if try store.deleteRecord(env: env, zone: zone, name: name) {
                        result.deleted += 1
                    } else {
                        result.diagnostics.append(Diagnostic(rule: notFound, "Record not found: \(JSONValue.string(name).text) in zone '\(ControlCharacters.escaped(zone))'", at: nil,
                                                         fix: "check the record name and --zone"))
                    }
                }
                try recorder?.record(before: before, keys: keys)
            }
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
