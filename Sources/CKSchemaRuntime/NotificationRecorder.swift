import Foundation
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaStore

/// Evaluates an environment's subscriptions around a write to the store and records the
/// notifications CloudKit would send: for query subscriptions one per record that matches
/// before and/or after as `firesOn` says (CKQueryNotification), for zone and database
/// subscriptions one per write and zone (CKRecordZoneNotification, CKDatabaseNotification).
///
/// Source: CKQuerySubscription.Options (firesOnRecordCreation / Update / Deletion: "a record that
/// matches the predicate"); CKQueryNotification (subscriptionID, queryNotificationReason, recordID,
/// recordFields: "for record updates and creations, the subscription's desired keys", databaseScope).
package final class NotificationRecorder {
    package struct Key: Hashable {
        var zone: String
        var name: String

        /// The memberwise initializer, for the layers above.
        package init(zone: String, name: String) {
            self.zone = zone
            self.name = name
        }
    }

    /// A record's state before or after the write.
    package struct State {
        var type: String
        var changeTag: String
        /// The record's fields, read when it matches a subscription (a notification may carry them).
        var fields: JSONValue?
        /// Per query subscription, in `queries` order.
        var matches: [Bool]
    }

    private struct QuerySubscription {
        var subscription: Subscription
        var type: RecordType
        var distances: [(field: String, latitude: Double, longitude: Double, meters: Double, within: Bool)]
    }

    private let env: Environment
    private let schema: Schema
    private let queries: [QuerySubscription]
    private let zoneSubscriptions: [Subscription]
    private let databaseSubscriptions: [Subscription]
    private let lookup: SQLiteStatement
    /// The same columns, then zone and name, for the records after a rowid: the records a batch
    /// created are one rowid range, read in one pass instead of one lookup each. `+env` keeps
    /// SQLite on the rowid range: with `env =` it walked `records_by_type` over every record of
    /// the environment for each batch (an import with two subscriptions took 2.4x the CPU).
    private let created: SQLiteStatement
    /// Where the record's zone and name are bound in `lookup` (the constants before them stay bound).
    private let keyParameter: Int32
    /// The query subscriptions `lookup` and `created` evaluate (the first group).
    private let firstGroup: Range<Int>
    /// The other groups: one statement can bind at most 32,766 values and return at most 2,000
    /// columns (SQLite's limits), so many subscriptions are evaluated in several statements,
    /// each looked up by the record's key, and a schema's subscriptions never make an import
    /// fail to prepare (issue 24, defect 6: a stored subscription never blocks imports).
    private let moreGroups: [(lookup: SQLiteStatement, keyParameter: Int32, queries: Range<Int>)]
    /// At most this many subscriptions, and this many bound values, in one statement.
    static let groupColumns = 100, groupBindings = 30_000
    /// True when a subscription tests a distance, which needs the record's fields in Swift.
    private let needsFields: Bool
    private let store: Store

    /// Nil when the environment's schema has no subscriptions: a write then costs nothing more.
    package init?(store: Store, env: Environment, schema: Schema) throws {
        guard !schema.subscriptions.isEmpty else { return nil }
        self.env = env
        self.schema = schema
        self.store = store
        let indexes = try store.indexes(env)
        var queries: [QuerySubscription] = []
        var groups: [(columns: [String], bindings: [SQLiteValue], queries: Range<Int>)] = []
        for s in schema.subscriptions where s.kind == .query {
            guard let t = s.recordType.flatMap({ schema.recordType(named: $0) }),
                  let p = try? PredicateParser.parse(s.predicate ?? "TRUEPREDICATE") else { continue }
            let search = Dictionary(indexes.filter { $0.recordType == t.name && $0.kind == .fts }.map { ($0.field, $0.sqlName) }, uniquingKeysWith: { a, _ in a })
            // The condition reads the type's FTS tables: they exist before any record of it does.
            if !search.isEmpty { try store.materializeIndexes(of: t, env: env) }
            guard let c = StoreQuery.condition(p, type: t, env: env, searchTables: search) else { continue }
            if groups.isEmpty || groups[groups.count - 1].columns.count >= Self.groupColumns
                || groups[groups.count - 1].bindings.count + c.bindings.count + 1 > Self.groupBindings {
                groups.append(([], [], queries.count..<queries.count))
            }
            groups[groups.count - 1].columns.append("(record_type = ? AND " + c.sql + ")")
            groups[groups.count - 1].bindings.append(.text(t.name))
            groups[groups.count - 1].bindings += c.bindings
            queries.append(QuerySubscription(subscription: s, type: t, distances: c.distances))
            groups[groups.count - 1].queries = groups[groups.count - 1].queries.lowerBound..<queries.count
        }
        self.queries = queries
        zoneSubscriptions = schema.subscriptions.filter { $0.kind == .zone }
        databaseSubscriptions = schema.subscriptions.filter { $0.kind == .database }
        // Every value bound: the subscriptions' constants first, then the record's key.
        let first = groups.first ?? ([], [], 0..<0)
        firstGroup = first.queries
        let select = RecordsTable.stateColumns.map(\.rawValue) + first.columns
        // Bound once: SQLite keeps bindings across resets, so each record binds only its key
        // (measured: rebinding every constant and reading every record's fields made a 200,000-record
        // import with two subscriptions 1.75x slower than without).
        lookup = try store.prepareRecordLookup(selecting: select)
        try lookup.bind(first.bindings + [.text(env.rawValue)])
        keyParameter = Int32(first.bindings.count + 2)
        created = try store.prepareRecordsCreated(selecting: select)
        try created.bind(first.bindings + [.integer(0), .text(env.rawValue)])
        moreGroups = try groups.dropFirst().map { g in
            let statement = try store.prepareRecordLookup(selecting: g.columns)
            try statement.bind(g.bindings + [.text(env.rawValue)])
            return (statement, Int32(g.bindings.count + 2), g.queries)
        }
        needsFields = queries.contains { !$0.distances.isEmpty }
    }

    /// The current state of each record (absent when it does not exist).
    package func states(_ keys: [Key]) throws -> [Key: State] {
        var out: [Key: State] = [:]
        out.reserveCapacity(keys.count)
        for k in keys {
            lookup.rewind()
            try lookup.bind(k.zone, at: keyParameter)
            try lookup.bind(k.name, at: keyParameter + 1)
            guard try lookup.step() else { continue }
            out[k] = try state(lookup, k)
        }
        return out
    }

    /// The largest rowid of `records` (the records a write creates come after it).
    func lastRowID() throws -> Int64 {
        try store.lastRecordID()
    }

    private func state(_ row: SQLiteStatement, _ key: Key) throws -> State {
        var matches: [Bool] = []
        matches.reserveCapacity(queries.count)
        var any = false
        for i in firstGroup {
            let m = row.int64(at: 3 + i) != 0
            matches.append(m)
            any = any || m
        }
        for g in moreGroups {
            g.lookup.rewind()
            try g.lookup.bind(key.zone, at: g.keyParameter)
            try g.lookup.bind(key.name, at: g.keyParameter + 1)
            let found = try g.lookup.step()
            for i in 0..<g.queries.count {
                let m = found && g.lookup.int64(at: i) != 0
                matches.append(m)
                any = any || m
            }
        }
        // Fields only for a record that matches: the others notify nothing (most of an import).
        let fields = any || needsFields ? try row.withBytes(at: 2) { try JSONValue.parse($0) } : nil
        if let fields {
            for (i, q) in queries.enumerated() where matches[i] && !q.distances.isEmpty {
                matches[i] = StoreQuery.matchesDistances(q.distances, fields)
            }
        }
        return State(type: row.string(at: 0), changeTag: row.string(at: 1), fields: fields, matches: matches)
    }

    /// Compares the states before the write with the states now and records the notifications.
    ///
    /// `createdAfter`: the largest rowid before the write, when the write is an import: the
    /// records it created are read as one range, and only the others one by one.
    package func record(before: [Key: State], keys: [Key], createdAfter rowid: Int64? = nil) throws {
        var touchedZones: [String: Set<String>] = [:]
        var last: (zone: String, type: String)?
        func touch(_ zone: String, _ type: String) {
            // Consecutive records are mostly of one zone and type: skip the set insert then.
            if let l = last, l.zone == zone, l.type == type { return }
            touchedZones[zone, default: []].insert(type)
            last = (zone, type)
        }
        if let rowid {
            // The records the write created, read as one range and notified as they come.
            created.rewind()
            try created.bind(rowid, at: keyParameter - 1)
            let zoneColumn = 3 + firstGroup.count
            while try created.step() {
                let k = Key(zone: created.string(at: zoneColumn), name: created.string(at: zoneColumn + 1))
                let a = try state(created, k)
                touch(k.zone, a.type)
                try notify(k, before: nil, after: a)
            }
            let existing = keys.filter { before[$0] != nil }
            let after = try states(existing)
            for k in existing {
                guard let b = before[k] else { continue }
                let a = after[k]
                if let a, b.changeTag == a.changeTag { continue }  // not written (a conflict, an atomic rollback)
                touch(k.zone, (a ?? b).type)
                try notify(k, before: b, after: a)
            }
        } else {
            let after = try states(keys)
            for k in keys {
                let b = before[k], a = after[k]
                if let b, let a, b.changeTag == a.changeTag { continue }  // not written (a conflict, an atomic rollback)
                guard let type = (a ?? b)?.type else { continue }
                touch(k.zone, type)
                try notify(k, before: b, after: a)
            }
        }
        for (zone, types) in touchedZones.sorted(by: { $0.key < $1.key }) {
            let db = schema.zone(named: zone)?.database ?? types.compactMap { schema.recordType(named: $0).flatMap(schema.database(of:)) }.first ?? .private
            for s in zoneSubscriptions where s.zone == zone && s.database == db && (s.recordType.map(types.contains) ?? true) {
                try write([("notificationType", .string("recordZone")), ("subscriptionID", .string(s.id)),
                           ("recordZoneID", .object([("zoneName", .string(zone))])), ("databaseScope", .string(s.database.rawValue))])
            }
        }
        // CKDatabaseSubscription: "executes whenever a change occurs in a custom record zone" of its
        // database; the default zone of the private database does not take part.
        var databaseTypes: [Database: Set<String>] = [:]
        for (zone, types) in touchedZones where zone != Zone.defaultZoneName {
            let db = schema.zone(named: zone)?.database ?? .private
            databaseTypes[db, default: []].formUnion(types)
        }
        for s in databaseSubscriptions {
            guard let types = databaseTypes[s.database], s.recordType.map(types.contains) ?? true else { continue }
            try write([("notificationType", .string("database")), ("subscriptionID", .string(s.id)), ("databaseScope", .string(s.database.rawValue))])
        }
    }

    /// The query notifications of one record that the write changed from `before` to `after`.
    private func notify(_ k: Key, before b: State?, after a: State?) throws {
        // A query subscription's zoneID limits it to that zone (CKQuerySubscription.zoneID).
        for (i, q) in queries.enumerated() where (database(of: q.type) == q.subscription.database || database(of: q.type) == nil)
            && (q.subscription.zone.map { $0 == k.zone } ?? true) {
            let was = b?.matches[i] ?? false, now = a?.matches[i] ?? false
            let reason: (String, Subscription.Event)?
            switch (b, a) {
            case (nil, .some): reason = now ? ("recordCreated", .create) : nil
            case (.some, nil): reason = was ? ("recordDeleted", .delete) : nil
            default: reason = was || now ? ("recordUpdated", .update) : nil
            }
            guard let (name, event) = reason, q.subscription.firesOn.contains(event) else { continue }
            var body: [(String, JSONValue)] = [
                ("notificationType", .string("query")),
                ("subscriptionID", .string(q.subscription.id)),
                ("queryNotificationReason", .string(name)),
                ("recordID", .object([("recordName", .string(k.name)), ("zoneName", .string(k.zone))])),
            ]
            if event != .delete, let a { body.append(("recordFields", .object(desired(q.subscription.desiredKeys, of: q.type, in: try a.fields ?? fields(k))))) }
            body.append(("databaseScope", .string(q.subscription.database.rawValue)))
            try write(body)
        }
    }

    private func database(of type: RecordType) -> Database? { schema.database(of: type) }

    /// A record's stored fields, read only for the records a notification carries keys of.
    private func fields(_ k: Key) throws -> JSONValue {
        try store.withRecordFields(env: env, zone: k.zone, name: k.name) { try JSONValue.parse($0) } ?? .object([])
    }

    /// The desired keys of a record in the Web Services shape; an encrypted value never leaves the store.
    private func desired(_ keys: [String], of type: RecordType, in fields: JSONValue) -> [(String, JSONValue)] {
        keys.compactMap { key in
            guard let f = type.field(named: key), !f.isEncrypted, f.type.primitive != .asset, let v = fields[key] else { return nil }
            return (key, FieldValue.webServices(v, field: f))
        }
    }

    private func write(_ body: [(String, JSONValue)]) throws {
        try store.addNotification(env: env, body: JSONValue.object(body).text)
    }
}
