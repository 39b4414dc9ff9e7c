#if canImport(CloudKit)
import CloudKit
import CoreLocation
import Foundation
import CKSchemaModel
#if CKSCHEMA_ADAPTER_TYPECHECK
// Tests/CKSchemaTests/Testing/AdapterTypecheckTests.swift type-checks this file on Linux
// against the SDK stub, as a client of the module (its public API only).
import CKSchemaTesting
#endif

/// `CKDatabase`'s async calls, with the SDK's exact signatures (macOS 13 / iOS 16 SDKs and
/// later): the app's code talks to a `CloudDatabase`, the app passes `CKContainer`'s database,
/// its tests a `FakeCloudDatabase` (docs/testing.md).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public protocol CloudDatabase: Sendable {
    func modifyRecords(saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
                       savePolicy: CKModifyRecordsOperation.RecordSavePolicy, atomically: Bool) async throws
        -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>])
    func records(for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]?) async throws -> [CKRecord.ID: Result<CKRecord, any Error>]
    func record(for recordID: CKRecord.ID) async throws -> CKRecord
    func records(matching query: CKQuery, inZoneWith zoneID: CKRecordZone.ID?, desiredKeys: [CKRecord.FieldKey]?, resultsLimit: Int) async throws
        -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?)
    func records(continuingMatchFrom queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]?, resultsLimit: Int) async throws
        -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?)
    func recordZoneChanges(inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]?,
                           resultsLimit: Int?) async throws
        -> (modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
            deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool)
    func modifyRecordZones(saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]) async throws
        -> (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>])
    func recordZone(for zoneID: CKRecordZone.ID) async throws -> CKRecordZone
    func allRecordZones() async throws -> [CKRecordZone]
    func save(_ subscription: CKSubscription) async throws -> CKSubscription
    func deleteSubscription(withID subscriptionID: CKSubscription.ID) async throws -> CKSubscription.ID
    func allSubscriptions() async throws -> [CKSubscription]
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension CKDatabase: CloudDatabase {}

/// A `CloudDatabase` over one of a `FakeCloudKit`'s databases: it takes and returns real
/// `CKRecord`s and throws real `CKError`s (userInfo as CloudKit sets it). Conversion only:
/// every rule is the engine's. A record it returns is a `FakeCloudDatabase.ServerRecord`, a
/// `CKRecord` that carries the change tag and dates the fake's server gave it, so that the app
/// saving it back is a save of that version (docs/testing.md says what it cannot do).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class FakeCloudDatabase: CloudDatabase, @unchecked Sendable {
    public let cloud: FakeCloudKit
    public let database: FakeCloudKit.Database

    /// A fake container from any schema source, and its database `scope` (docs/testing.md).
    public convenience init(schema: String, environment: FakeCloudKit.Environment = .production, scope: CloudDatabaseScope = .private) throws {
        self.init(try FakeCloudKit(schema: schema, environment: environment).database(scope))
    }

    public init(_ database: FakeCloudKit.Database) {
        self.database = database
        self.cloud = database.cloud
    }

    /// A `CKRecord` with the system fields the server gave it (`recordChangeTag` is read-only
    /// on `CKRecord`, so only a subclass can carry one).
    public final class ServerRecord: CKRecord, @unchecked Sendable {
        var tag: String?
        var created: Date?
        var modified: Date?
        public override var recordChangeTag: String? { tag }
        public override var creationDate: Date? { created }
        public override var modificationDate: Date? { modified }
    }

    // MARK: Conversion

    static func zoneID(_ name: String) -> CKRecordZone.ID { CKRecordZone.ID(zoneName: name, ownerName: CKCurrentUserDefaultName) }

    static func id(_ id: CKRecord.ID) -> CloudRecord.ID { CloudRecord.ID(recordName: id.recordName, zoneName: id.zoneID.zoneName) }

    static func id(_ id: CloudRecord.ID) -> CKRecord.ID { CKRecord.ID(recordName: id.recordName, zoneID: zoneID(id.zoneName)) }

    /// A CKRecord's value; a reference into another zone than `zone` (the record's) keeps its
    /// zone, so that the engine refuses it as CloudKit does.
    static func value(_ object: Any, zone: String) -> CloudValue? {
        switch object {
        case let s as String: return .string(s)
        case let d as Date: return .timestamp(d)
        case let d as Data: return .bytes(d)
        case let l as CLLocation: return .location(latitude: l.coordinate.latitude, longitude: l.coordinate.longitude)
        case let r as CKRecord.Reference:
            let action: CloudValue.ReferenceAction = r.action == .deleteSelf ? .deleteSelf : .none
            guard r.recordID.zoneID.zoneName == zone else { return .referenceInZone(recordName: r.recordID.recordName, zoneName: r.recordID.zoneID.zoneName, action: action) }
            return .reference(recordName: r.recordID.recordName, action: action)
        case let a as CKAsset: return a.fileURL.map { .asset($0) }
        case let n as NSNumber:
            let kind = String(cString: n.objCType)
            return kind == "d" || kind == "f" ? .double(n.doubleValue) : .int64(n.int64Value)
        case let items as [Any]: return .list(items.compactMap { value($0, zone: zone) })
        default: return nil
        }
    }

    static func record(_ r: CKRecord) -> CloudRecord {
        var out = CloudRecord(recordType: r.recordType, id: id(r.recordID))
        let zone = r.recordID.zoneID.zoneName
        for key in r.allKeys() { if let o = r.object(forKey: key), let v = value(o, zone: zone) { out[key] = v } }
        for key in r.encryptedValues.allKeys() { if let o = r.encryptedValues.object(forKey: key), let v = value(o, zone: zone) { out.encrypted[key] = v } }
        out.setSystemFields(changeTag: r.recordChangeTag, created: r.creationDate, modified: r.modificationDate)
        return out
    }

    static func object(_ v: CloudValue, zone: CKRecordZone.ID) -> (any CKRecordValueProtocol)? {
        switch v {
        case .string(let s): return s
        case .int64(let i): return i
        case .double(let d): return d
        case .timestamp(let d): return d
        case .bytes(let d): return d
        case .location(let lat, let lon): return CLLocation(latitude: lat, longitude: lon)
        case .reference(let name, let action):
            return CKRecord.Reference(recordID: CKRecord.ID(recordName: name, zoneID: zone), action: action == .deleteSelf ? .deleteSelf : .none)
        case .referenceInZone(let name, let other, let action):
            return CKRecord.Reference(recordID: CKRecord.ID(recordName: name, zoneID: zoneID(other)), action: action == .deleteSelf ? .deleteSelf : .none)
        case .asset(let url): return CKAsset(fileURL: url)
        case .list(let items):
            let objects = items.compactMap { object($0, zone: zone) }
            if let a = objects as? [String] { return a }
            if let a = objects as? [Int64] { return a }
            if let a = objects as? [Double] { return a }
            if let a = objects as? [Date] { return a }
            if let a = objects as? [Data] { return a }
            if let a = objects as? [CLLocation] { return a }
            if let a = objects as? [CKRecord.Reference] { return a }
            if let a = objects as? [CKAsset] { return a }
            return nil
        }
    }

    static func record(_ r: CloudRecord) -> CKRecord {
        let out = ServerRecord(recordType: r.recordType, recordID: id(r.id))
        let zone = zoneID(r.id.zoneName)
        for key in r.allKeys { out[key] = r[key].flatMap { object($0, zone: zone) } }
        for key in r.encrypted.keys { out.encryptedValues[key] = r.encrypted[key].flatMap { object($0, zone: zone) } }
        out.tag = r.recordChangeTag
        out.created = r.creationDate
        out.modified = r.modificationDate
        return out
    }

    /// The engine's error as the `CKError` CloudKit throws, with its userInfo keys.
    static func error(_ e: CloudKitError) -> CKError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: e.message]
        if let s = e.retryAfterSeconds { info[CKErrorRetryAfterKey] = NSNumber(value: s) }
        if let r = e.serverRecord { info[CKRecordChangedErrorServerRecordKey] = record(r) }
        if let r = e.clientRecord { info[CKRecordChangedErrorClientRecordKey] = record(r) }
        if let r = e.ancestorRecord { info[CKRecordChangedErrorAncestorRecordKey] = record(r) }
        if let partial = e.partialErrors {
            var byID: [AnyHashable: any Error] = [:]
            for (id, inner) in partial { byID[Self.id(id)] = error(inner) }
            info[CKPartialErrorsByItemIDKey] = byID
        }
        return CKError(CKError.Code(rawValue: e.code.rawValue) ?? .internalError, userInfo: info)
    }

    static func policy(_ p: CKModifyRecordsOperation.RecordSavePolicy) -> SavePolicy {
        switch p {
        case .changedKeys: .changedKeys
        case .allKeys: .allKeys
        default: .ifServerRecordUnchanged
        }
    }

    static func zone(_ z: CloudZone) -> CKRecordZone {
        let out = CKRecordZone(zoneID: zoneID(z.name))
        var caps: CKRecordZone.Capabilities = []
        if z.capabilities.contains(.fetchChanges) { caps.insert(.fetchChanges) }
        if z.capabilities.contains(.atomic) { caps.insert(.atomic) }
        if z.capabilities.contains(.sharing) { caps.insert(.sharing) }
        out.capabilities = caps
        return out
    }

    /// The predicate's format string: the query the app wrote, which the engine's predicate
    /// reader parses. (swift-corelibs-foundation, where the stub type-checks this file, marks
    /// `predicateFormat` deprecated; only there is `description` read.)
    static func format(_ p: NSPredicate) -> String {
        #if canImport(Darwin)
        return p.predicateFormat
        #else
        return p.description
        #endif
    }

    /// Runs an engine call, its error thrown as `CKError`.
    func run<T>(_ body: () async throws(CloudKitError) -> T) async throws -> T {
        do { return try await body() } catch { throw Self.error(error) }
    }

    // MARK: CloudDatabase

    public func modifyRecords(saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
                              savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true) async throws
        -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]) {
        let saving = recordsToSave.map { Self.record($0) }
        let (saved, deleted) = try await run { () async throws(CloudKitError) in
            try await database.modifyRecords(saving: saving, deleting: recordIDsToDelete.map { Self.id($0) },
                                             savePolicy: Self.policy(savePolicy), atomically: atomically)
        }
        var saveResults: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        for r in recordsToSave {
            switch saved[Self.id(r.recordID)] {
            case .success(let s)?: saveResults[r.recordID] = .success(Self.record(s))
            case .failure(let e)?: saveResults[r.recordID] = .failure(Self.error(e))
            case nil: break
            }
        }
        var deleteResults: [CKRecord.ID: Result<Void, any Error>] = [:]
        for id in recordIDsToDelete {
            switch deleted[Self.id(id)] {
            case .success?: deleteResults[id] = .success(())
            case .failure(let e)?: deleteResults[id] = .failure(Self.error(e))
            case nil: break
            }
        }
        return (saveResults, deleteResults)
    }

    public func records(for ids: [CKRecord.ID], desiredKeys: [CKRecord.FieldKey]? = nil) async throws -> [CKRecord.ID: Result<CKRecord, any Error>] {
        let found = try await run { () async throws(CloudKitError) in try await database.records(for: ids.map { Self.id($0) }) }
        var out: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        for id in ids {
            switch found[Self.id(id)] {
            case .success(let r)?: out[id] = .success(Self.record(r))
            case .failure(let e)?: out[id] = .failure(Self.error(e))
            case nil: break
            }
        }
        return out
    }

    public func record(for recordID: CKRecord.ID) async throws -> CKRecord {
        Self.record(try await run { () async throws(CloudKitError) in try await database.record(for: Self.id(recordID)) })
    }

    /// Every match in one page: `CKQueryOperation.Cursor` has no public initializer, so the fake
    /// cannot hand one out (docs/testing.md).
    public func records(matching query: CKQuery, inZoneWith zoneID: CKRecordZone.ID? = nil, desiredKeys: [CKRecord.FieldKey]? = nil,
                        resultsLimit: Int = CKQueryOperation.maximumResults) async throws
        -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        let q = CloudQuery(recordType: query.recordType, predicate: Self.format(query.predicate),
                           sortedBy: (query.sortDescriptors ?? []).compactMap { d in d.key.map { (key: $0, ascending: d.ascending) } })
        let page = try await run { () async throws(CloudKitError) in try await database.records(matching: q, inZone: zoneID?.zoneName) }
        return (page.matchResults.map { id, r in (Self.id(id), r.map { Self.record($0) }.mapError { Self.error($0) as any Error }) }, nil)
    }

    public func records(continuingMatchFrom queryCursor: CKQueryOperation.Cursor, desiredKeys: [CKRecord.FieldKey]? = nil,
                        resultsLimit: Int = CKQueryOperation.maximumResults) async throws
        -> (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: CKQueryOperation.Cursor?) {
        throw CKError(.invalidArguments, userInfo: [NSLocalizedDescriptionKey: "FakeCloudDatabase gives every match in one page and no cursor"])
    }

    /// Not served: `CKServerChangeToken` has no public initializer, so the fake cannot hand one
    /// out; tests of zone changes call `FakeCloudKit.Database.recordZoneChanges` (docs/testing.md).
    public func recordZoneChanges(inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?,
                                  desiredKeys: [CKRecord.FieldKey]? = nil, resultsLimit: Int? = nil) async throws
        -> (modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
            deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool) {
        throw CKError(.internalError, userInfo: [NSLocalizedDescriptionKey: "FakeCloudDatabase cannot create a CKServerChangeToken; use FakeCloudKit.Database.recordZoneChanges"])
    }

    public func modifyRecordZones(saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]) async throws
        -> (saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]) {
        let zones = recordZonesToSave.map { z in
            var caps: CloudZone.Capabilities = []
            if z.capabilities.contains(.fetchChanges) { caps.insert(.fetchChanges) }
            if z.capabilities.contains(.atomic) { caps.insert(.atomic) }
            if z.capabilities.contains(.sharing) { caps.insert(.sharing) }
            return CloudZone(name: z.zoneID.zoneName, capabilities: caps)
        }
        let (saved, deleted) = try await run { () async throws(CloudKitError) in
            try await database.modifyRecordZones(saving: zones, deleting: recordZoneIDsToDelete.map(\.zoneName))
        }
        var saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
        for z in recordZonesToSave {
            saveResults[z.zoneID] = saved[z.zoneID.zoneName].map { $0.map { Self.zone($0) }.mapError { Self.error($0) as any Error } }
        }
        var deleteResults: [CKRecordZone.ID: Result<Void, any Error>] = [:]
        for id in recordZoneIDsToDelete { deleteResults[id] = deleted[id.zoneName].map { $0.mapError { Self.error($0) as any Error } } }
        return (saveResults, deleteResults)
    }

    public func recordZone(for zoneID: CKRecordZone.ID) async throws -> CKRecordZone {
        Self.zone(try await run { () async throws(CloudKitError) in try await database.recordZone(for: zoneID.zoneName) })
    }

    public func allRecordZones() async throws -> [CKRecordZone] {
        try await run { () async throws(CloudKitError) in try await database.allRecordZones() }.map { Self.zone($0) }
    }

    public func save(_ subscription: CKSubscription) async throws -> CKSubscription {
        let kind: CloudSubscription.Kind
        switch subscription {
        case let q as CKQuerySubscription:
            var events: Set<CloudSubscription.Event> = []
            if q.querySubscriptionOptions.contains(.firesOnRecordCreation) { events.insert(.create) }
            if q.querySubscriptionOptions.contains(.firesOnRecordUpdate) { events.insert(.update) }
            if q.querySubscriptionOptions.contains(.firesOnRecordDeletion) { events.insert(.delete) }
            kind = .query(recordType: q.recordType ?? "", predicate: Self.format(q.predicate), firesOn: events)
        case let z as CKRecordZoneSubscription: kind = .zone(z.zoneID.zoneName)
        default: kind = .database
        }
        let s = CloudSubscription(id: subscription.subscriptionID, kind: kind)
        _ = try await run { () async throws(CloudKitError) in try await database.save(s) }
        return subscription
    }

    public func deleteSubscription(withID subscriptionID: CKSubscription.ID) async throws -> CKSubscription.ID {
        try await run { () async throws(CloudKitError) in try await database.deleteSubscription(withID: subscriptionID) }
        return subscriptionID
    }

    public func allSubscriptions() async throws -> [CKSubscription] {
        let all = try await run { () async throws(CloudKitError) in try await database.allSubscriptions() }
        return all.map { s -> CKSubscription in
            switch s.kind {
            case .query(let type, let predicate, let events):
                var options: CKQuerySubscription.Options = []
                if events.contains(.create) { options.insert(.firesOnRecordCreation) }
                if events.contains(.update) { options.insert(.firesOnRecordUpdate) }
                if events.contains(.delete) { options.insert(.firesOnRecordDeletion) }
                return CKQuerySubscription(recordType: type, predicate: NSPredicate(format: predicate, argumentArray: nil), subscriptionID: s.id, options: options)
            case .zone(let zone): return CKRecordZoneSubscription(zoneID: Self.zoneID(zone), subscriptionID: s.id)
            case .database: return CKDatabaseSubscription(subscriptionID: s.id)
            }
        }
    }
}
#endif
