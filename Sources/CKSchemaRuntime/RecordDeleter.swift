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
                let s = try store.db.prepare("DELETE FROM records WHERE env = ?1 AND zone = ?2 AND record_name = ?3")
                for name in names {
                    s.reset()
                    try s.bind([.text(env.rawValue), .text(zone), .text(name)])
                    _ = try s.step()
                    if store.db.changes == 1 {
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
            guard try store.hasRuntimeTables() else { return 0 }
            let s = try store.db.prepare("SELECT seq, body FROM notifications WHERE env = ?1 AND seq > ?2 ORDER BY seq")
            try s.bind([.text(env.rawValue), .integer(since)])
            var n = 0
            while try s.step() {
                let body = try s.withBytes(at: 1) { try JSONValue.parse($0) }
                let line = JSONValue.object([("sequence", .int(s.int64(at: 0)))] + (body.objectValue ?? []))
                switch format {
                case .ndjson: try sink(line.text + "\n")
                case .text:
                    var parts = ["\(s.int64(at: 0))", body["subscriptionID"].map(\.text) ?? "", body["queryNotificationReason"]?.stringValue ?? body["notificationType"]?.stringValue ?? ""]
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
