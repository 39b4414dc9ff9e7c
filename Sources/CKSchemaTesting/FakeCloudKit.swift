import Foundation
import CKSchemaConfig
import CKSchemaModel
import CKSchemaYAML

/// One in-memory CloudKit container for an app's tests, over ckschema's store and runtime:
/// a save is `records import`'s save (the validator's checks, the importer's save policies and
/// atomic zones), a query is `ckschema query`'s (lint's index rules), zone changes are
/// `ckschema changes`, notifications `ckschema notifications`. Production refuses what
/// production's schema lacks; development adds it just in time and lists it in
/// `developmentAdditions`. No rule is implemented here: this type translates CloudKit's
/// vocabulary to those layers and their refusals to `CloudKitError` (docs/testing.md).
///
/// `Sendable`: every call runs under one lock, so two "devices" (two callers of one fake)
/// and parallel tests see CloudKit's per-zone ordering of writes.
public final class FakeCloudKit: @unchecked Sendable {
    public typealias Environment = CKSchemaModel.Environment

    public let environment: Environment
    private let lock = NSLock()
    private let engine: Engine

    /// Loads any schema source (a YAML file or folder, a `.ckdb`, a Core Data model, SwiftData
    /// sources; or YAML text) as the container's schema. The container starts as CloudKit's
    /// does: no custom zones and no subscriptions until the app saves them. Throws the
    /// loader's `InputError` for a source that does not load.
    public init(schema: String, environment: Environment = .production) throws {
        self.environment = environment
        let loaded: Schema
        if FileManager.default.fileExists(atPath: schema) || !schema.contains("\n") {
            loaded = try SchemaCache.shared.schema(path: schema) { try SchemaSource.load(path: schema) }
        } else {
            loaded = try SchemaCache.shared.schema(text: schema) {
                try SchemaSource.parseYAML(Data(schema.utf8), file: "<schema>", keepComments: false).schema
            }
        }
        engine = try Engine(schema: loaded, env: environment)
    }

    /// A database of the container: the same data for every caller.
    public func database(_ scope: CloudDatabaseScope) -> Database { Database(cloud: self, scope: scope) }

    /// The record types and fields development created just in time, in the order of the
    /// schema: the schema change a deploy to production needs. Empty in production.
    public var developmentAdditions: [DevelopmentAddition] { synchronized { engine.additions() } }

    /// Makes the next `times` calls of `operation` fail with `fault`, as CloudKit would.
    public func inject(_ fault: CloudFault, on operation: CloudOperation, times: Int = 1) {
        synchronized { engine.faults[operation, default: []] += Array(repeating: fault, count: max(0, times)) }
    }

    func locked<T>(_ body: () throws(CloudKitError) -> T) throws(CloudKitError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    func synchronized<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// `CKDatabase`'s calls, async as the SDK's are.
    public struct Database: Sendable {
        public let cloud: FakeCloudKit
        public let scope: CloudDatabaseScope

        public func modifyRecordZones(saving: [CloudZone], deleting: [String]) async throws(CloudKitError)
            -> (saveResults: [String: Result<CloudZone, CloudKitError>], deleteResults: [String: Result<Void, CloudKitError>]) {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.modifyZones(scope, saving: saving, deleting: deleting) }
        }

        public func allRecordZones() async throws(CloudKitError) -> [CloudZone] {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.allZones(scope) }
        }

        public func recordZone(for name: String) async throws(CloudKitError) -> CloudZone {
            let zones = try await allRecordZones()
            guard let z = zones.first(where: { $0.name == name }) else { throw Engine.zoneNotFound(name) }
            return z
        }

        public func modifyRecords(saving: [CloudRecord], deleting: [CloudRecord.ID], savePolicy: SavePolicy = .ifServerRecordUnchanged,
                                  atomically: Bool = true) async throws(CloudKitError)
            -> (saveResults: [CloudRecord.ID: Result<CloudRecord, CloudKitError>], deleteResults: [CloudRecord.ID: Result<Void, CloudKitError>]) {
            try cloud.locked { () throws(CloudKitError) in
                try cloud.engine.modifyRecords(scope, saving: saving, deleting: deleting, policy: savePolicy, atomically: atomically)
            }
        }

        public func records(for ids: [CloudRecord.ID]) async throws(CloudKitError) -> [CloudRecord.ID: Result<CloudRecord, CloudKitError>] {
            try cloud.locked { () throws(CloudKitError) in
                try cloud.engine.fault(.records)
                return try cloud.engine.fetch(scope, ids)
            }
        }

        /// One record, or its error thrown (`CKDatabase.record(for:)`).
        public func record(for id: CloudRecord.ID) async throws(CloudKitError) -> CloudRecord {
            let results = try await records(for: [id])
            switch results[id] {
            case .success(let r)?: return r
            case .failure(let e)?: throw e
            case nil: throw CloudKitError(.unknownItem, "Record not found")
            }
        }

        public func records(matching query: CloudQuery, inZone zone: String? = nil, resultsLimit: Int? = nil) async throws(CloudKitError)
            -> (matchResults: [(CloudRecord.ID, Result<CloudRecord, CloudKitError>)], cursor: CloudQueryCursor?) {
            try cloud.locked { () throws(CloudKitError) in
                try cloud.engine.fault(.records)
                return try cloud.engine.query(CloudQueryCursor(query: query, zone: zone, offset: 0, limit: resultsLimit, database: scope))
            }
        }

        public func records(continuingMatchFrom cursor: CloudQueryCursor) async throws(CloudKitError)
            -> (matchResults: [(CloudRecord.ID, Result<CloudRecord, CloudKitError>)], cursor: CloudQueryCursor?) {
            try cloud.locked { () throws(CloudKitError) in
                try cloud.engine.fault(.records)
                return try cloud.engine.query(cursor)
            }
        }

        public func recordZoneChanges(inZone zone: String, since token: CloudChangeToken? = nil, resultsLimit: Int? = nil) async throws(CloudKitError)
            -> (modifications: [CloudRecord], deletions: [CloudRecord.ID], changeToken: CloudChangeToken, moreComing: Bool) {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.zoneChanges(scope, zone: zone, since: token, limit: resultsLimit) }
        }

        @discardableResult
        public func save(_ subscription: CloudSubscription) async throws(CloudKitError) -> CloudSubscription {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.saveSubscription(scope, subscription) }
        }

        public func deleteSubscription(withID id: String) async throws(CloudKitError) {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.deleteSubscription(scope, id) }
        }

        public func allSubscriptions() async throws(CloudKitError) -> [CloudSubscription] {
            try cloud.locked { () throws(CloudKitError) in try cloud.engine.allSubscriptions(scope) }
        }

        /// What this database's subscriptions fired, oldest first.
        public var notifications: [CloudNotification] {
            get throws(CloudKitError) { try cloud.locked { () throws(CloudKitError) in try cloud.engine.notifications(scope) } }
        }
    }
}

/// The schemas fakes were made from, process-wide: a fake per test reads its schema source once
/// (issue 33, "a fake per test is cheap"). A file is read again when its modification time or
/// size changed, a folder when any file under it did; YAML text is its own key. Bounded: past
/// `limit` sources the cache starts over.
final class SchemaCache: @unchecked Sendable {
    static let shared = SchemaCache()
    static let limit = 64

    private let lock = NSLock()
    private var entries: [String: (stamp: String, schema: Schema)] = [:]

    /// The schema at `path` (a file or a folder), loaded by `load` when it is not cached or
    /// changed since. A source that does not load is never cached (the next call loads it again).
    func schema(path: String, load: () throws -> Schema) throws -> Schema {
        let key = "path:" + URL(fileURLWithPath: path).standardizedFileURL.path
        guard let stamp = Self.stamp(path) else { return try load() }
        return try cached(key, stamp: stamp, load)
    }

    /// The schema YAML text `text` holds.
    func schema(text: String, load: () throws -> Schema) throws -> Schema {
        try cached("text:" + text, stamp: "", load)
    }

    private func cached(_ key: String, stamp: String, _ load: () throws -> Schema) throws -> Schema {
        lock.lock()
        let hit = entries[key]
        lock.unlock()
        if let hit, hit.stamp == stamp { return hit.schema }
        let schema = try load()
        lock.lock()
        if entries.count >= Self.limit { entries.removeAll() }
        entries[key] = (stamp, schema)
        lock.unlock()
        return schema
    }

    /// A file's modification time and size; for a folder, those of every file under it, by
    /// path. Nil when the path cannot be read (the loader says why).
    static func stamp(_ path: String) -> String? {
        let fm = FileManager.default
        func one(_ p: String) -> String? {
            guard let a = try? fm.attributesOfItem(atPath: p) else { return nil }
            let mtime = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(mtime):\((a[.size] as? NSNumber)?.int64Value ?? -1)"
        }
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { return one(path) }
        guard let files = fm.enumerator(atPath: path) else { return nil }
        var parts: [String] = []
        for case let file as String in files {
            parts.append(file + "=" + (one(path + "/" + file) ?? "?"))
        }
        return parts.sorted().joined(separator: "\n")
    }
}
