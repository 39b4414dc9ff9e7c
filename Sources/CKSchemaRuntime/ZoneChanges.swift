import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// `ckschema changes`: a zone's changed and deleted records since a change token, as
/// `CKFetchRecordZoneChangesOperation` returns them, and a new token.
///
/// Source: CKFetchRecordZoneChangesOperation (developer.apple.com/documentation/cloudkit/ckfetchrecordzonechangesoperation):
/// changes are fetched per custom zone with the fetchChanges capability; the token
/// (CKServerChangeToken) is opaque and belongs to one zone.
public enum ZoneChanges {
    public enum Outcome: Sendable {
        /// Changed records and deletions written, then the token.
        case changes(changed: Int, deleted: Int)
        case refused([Diagnostic])
    }

    /// One change of a zone, as the store holds it: a deletion, or a record (its row and its
    /// stored fields, parsed once), then the new token.
    package enum Change {
        case deleted(recordName: String)
        case record(RecordRows.Row, fields: JSONValue)
        case token(String)
    }

    /// Writes the zone's changes since `token` (every record when nil) to `sink`, one NDJSON
    /// line each, then `{"serverChangeToken": ...}`. Throws CK732 (exit 2) for a token this
    /// store did not issue for this zone and environment.
    public static func fetch(store: Store, environment env: Environment, zone: String, since token: String?,
                             format: RecordLineFormat = .ndjson, sink: (String) throws -> Void) throws(InputError) -> Outcome {
        let schema = try store.schema(env)
        let fields = Dictionary(schema.recordTypes.map { t in (t.name, Dictionary(t.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })) },
                                uniquingKeysWith: { a, _ in a })
        return try changes(store: store, schema: schema, environment: env, zone: zone, since: token) { change in
            switch change {
            case .deleted(let name):
                try sink(format.line(.object([("recordName", .string(name)), ("zoneID", .object([("zoneName", .string(zone))])), ("deleted", .bool(true))])))
            case .record(let row, let stored):
                try sink(format.line(RecordExporter.webServicesRecord(row, stored: stored, fields: fields[row.recordType] ?? [:], redactEncrypted: true)))
            case .token(let t):
                try sink(JSONValue.object([("serverChangeToken", .string(t))]).text + "\n")
            }
        }
    }

    /// The zone's changes since `token`, as rows: the deletions, then the records created or
    /// updated, then the new token; `fetch` renders the same changes as lines, and an
    /// in-memory CloudKit (CKSchemaTesting) reads them without rendering. The refusals (the
    /// default zone, a zone that does not exist or cannot fetch changes) and the token's
    /// checks are the same for both. `schema` is the environment's (the caller read it).
    package static func changes(store: Store, schema: Schema, environment env: Environment, zone: String, since token: String?,
                                _ body: (Change) throws -> Void) throws(InputError) -> Outcome {
        if zone == Zone.defaultZoneName {
            return .refused([Diagnostic(rule: RuntimeRules.changesDefaultZone,
                                    "the default zone does not support fetching changes (CKFetchRecordZoneChangesOperation needs a custom zone)", at: nil,
                                    fix: "move the record types whose changes the app fetches into a custom zone with the fetchChanges capability")])
        }
        guard let z = schema.zone(named: zone) else {
            return .refused([Diagnostic(rule: RuntimeRules.zoneNotFound, "Zone '\(ControlCharacters.escaped(zone))' does not exist in the \(env.rawValue) environment", at: nil,
                                    fix: "zones: " + schema.zones.map(\.name).joined(separator: ", "))])
        }
        guard z.capabilities.contains(.fetchChanges) else {
            return .refused([Diagnostic(rule: RuntimeRules.changesNotSupported, "zone '\(zone)' does not have the fetchChanges capability, so its changes cannot be fetched", at: nil,
                                    fix: "add fetchChanges to the zone's capabilities")])
        }
        return try store.guarded("fetch zone changes") {
            let hasLog = try store.hasRuntimeTables()
            let storeID = try store.storeID()
            // A position in the store's history: the change log's last entry and the last record id.
            let last = Position(seq: try store.lastChangeSeq(), recordID: try store.lastRecordID())
            var since: Position?
            if let token { since = try decode(token, storeID: storeID, env: env, zone: zone, last: last) }
            var changed = 0, deleted = 0
            if let since, hasLog {
                // Deleted since (and not saved again), then created or updated since.
                try store.deletedRecordNames(env: env, zone: zone, after: since.seq) { name in
                    try body(.deleted(recordName: name))
                    deleted += 1
                }
            }
            let rows = try store.zoneRows(env: env, zone: zone, since: hasLog ? since.map { ($0.seq, $0.recordID) } : nil)
            while let row = try rows.next() {
                let stored = try rows.withFields { try JSONValue.parse($0) }
                try body(.record(row, fields: stored))
                changed += 1
            }
            try body(.token(encode(storeID: storeID, env: env, zone: zone, at: last)))
            return .changes(changed: changed, deleted: deleted)
        }
    }

    static let prefix = "ck1"

    /// Where a token stands: the last change-log entry and the last record id it has seen.
    struct Position: Equatable {
        var seq: Int64
        var recordID: Int64
    }

    /// `ck1.<base64url(storeID:env:seq-recordID:zone)>.<12 hex of its SHA-256>`: opaque to the app, checkable by us.
    static func encode(storeID: String, env: Environment, zone: String, at p: Position) -> String {
        let payload = "\(storeID):\(env.rawValue):\(p.seq)-\(p.recordID):\(zone)"
        let b64 = Data(payload.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "\(prefix).\(b64).\(SHA256.hex(payload).prefix(12))"
    }

    /// The sequence number a token stands for, or CK732 (exit 2) saying why it is not ours.
    static func decode(_ token: String, storeID: String, env: Environment, zone: String, last: Position) throws(InputError) -> Position {
        func refuse(_ why: String) -> InputError {
            InputError(Diagnostic(rule: RuntimeRules.badToken, "the change token \(why)", at: nil,
                              fix: "fetch without --since to get every record and a new token"))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 4096, parts.count == 3, parts[0] == prefix else { throw refuse("is not one ckschema issued") }
        var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard let data = Data(base64Encoded: b64), let payload = String(data: data, encoding: .utf8),
              SHA256.hex(payload).prefix(12) == parts[2] else { throw refuse("is not one ckschema issued (it is damaged)") }
        let fields = payload.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        let numbers = fields.count == 4 ? fields[2].split(separator: "-").compactMap { Int64($0) } : []
        guard numbers.count == 2, numbers[0] >= 0, numbers[1] >= 0 else { throw refuse("is not one ckschema issued") }
        let p = Position(seq: numbers[0], recordID: numbers[1])
        guard fields[0] == storeID else { throw refuse("was issued by another store") }
        // What the token says is escaped as JSON: a crafted token cannot put control characters in a log.
        func shown(_ s: Substring) -> String { "\"" + ControlCharacters.escaped(String(s)) + "\"" }
        guard fields[1] == env.rawValue else { throw refuse("was issued for the environment \(shown(fields[1])), not \(env.rawValue)") }
        guard fields[3] == zone else { throw refuse("was issued for zone \(shown(fields[3])), not \"\(zone)\"") }
        guard p.seq <= last.seq, p.recordID <= last.recordID else { throw refuse("is newer than this store's changes (was the store replaced?)") }
        return p
    }
}
