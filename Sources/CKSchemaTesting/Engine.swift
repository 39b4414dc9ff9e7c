import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaPredicate
import CKSchemaRecords
import CKSchemaRuntime
import CKSchemaStore

/// The state of one `FakeCloudKit`, used only under its lock: an in-memory store per database
/// (each with the container's schema), the zones' incarnations, the faults asked for and the
/// records as the server returned them (the ancestors of a conflict).
final class Engine {
    typealias SaveResults = [CloudRecord.ID: Result<CloudRecord, CloudKitError>]
    typealias DeleteResults = [CloudRecord.ID: Result<Void, CloudKitError>]
    private typealias C = RecordsTable.Column

    let env: Environment
    /// The schema the fake was made from (what development's additions are measured against).
    let base: Schema
    private var stores: [CloudDatabaseScope: Store] = [:]
    private var schemas: [CloudDatabaseScope: Schema] = [:]
    /// A zone's incarnation ("scope/zone"): deleting the zone expires the tokens it gave.
    private var epochs: [String: Int] = [:]
    var faults: [CloudOperation: [CloudFault]] = [:]
    /// Each record version a save or delete replaced, by change tag: a client holds either the
    /// current version's tag (no conflict) or one of these, whose record is the conflict's
    /// ancestor (`CKError.ancestorRecord`). Kept as each is replaced, not as each is answered:
    /// a store of new records costs nothing here (bounded by the test's updates and deletes).
    private var versions: [String: CloudRecord] = [:]

    /// CloudKit's limits of one modify request (CloudKit Web Services Reference, "Data Size
    /// Limits"; CKModifyRecordsOperation: 400 items). The 1 MB per record is the validator's CK410.
    static let maxItems = 400
    static let maxRequestBytes = 2 * 1024 * 1024

    init(schema: Schema, env: Environment) throws {
        self.env = env
        var s = schema
        s.zones = []
        s.subscriptions = []
        base = s
        _ = try store(.private)
    }

    // MARK: Stores

    /// The database's store, created (with the container's record types) on first use: a copy
    /// of the process's prepared store for this schema and environment (`StoreTemplates`), or,
    /// once development has added types or fields, a new store with them.
    private func store(_ scope: CloudDatabaseScope) throws(CloudKitError) -> Store {
        if let s = stores[scope] { return s }
        do {
            var schema = base
            // Development's additions so far are the container's, whatever database made them.
            if let other = schemas.values.first { schema.recordTypes = other.recordTypes }
            let store: Store
            if schema == base {
                store = try StoreTemplates.shared.copy(of: base, env: env)
            } else {
                store = try Store(path: ":memory:")
                try store.db.transaction { try store.writeSchema(schema, env: env) }
            }
            stores[scope] = store
            schemas[scope] = schema
            return store
        } catch {
            throw CloudKitError(.internalError, "could not create the fake's store: \(error)")
        }
    }

    private func schema(_ scope: CloudDatabaseScope) throws(CloudKitError) -> Schema {
        _ = try store(scope)
        return schemas[scope]!
    }

    /// Writes a database's schema (zones, subscriptions, types) to its store.
    private func write(_ schema: Schema, _ scope: CloudDatabaseScope) throws(CloudKitError) {
        let s = try store(scope)
        do { try s.db.transaction { try s.writeSchema(schema, env: env) } } catch {
            throw Self.error(from: error, doing: "write the schema")
        }
        schemas[scope] = schema
    }

    /// Re-reads a store's schema after development grew it, and gives its record types to the
    /// other databases (the schema is the container's).
    private func refreshTypes(from scope: CloudDatabaseScope) throws(CloudKitError) {
        let fresh: Schema
        do { fresh = try stores[scope]!.schema(env) } catch { throw Self.error(from: error, doing: "read the schema") }
        guard fresh.recordTypes != schemas[scope]?.recordTypes else { return }
        schemas[scope] = fresh
        for other in stores.keys where other != scope {
            var s = schemas[other]!
            s.recordTypes = fresh.recordTypes
            try write(s, other)
        }
    }

    func additions() -> [DevelopmentAddition] {
        guard env == .development, let now = schemas[.private] ?? schemas.values.first else { return [] }
        var out: [DevelopmentAddition] = []
        for t in now.recordTypes {
            guard let old = base.recordType(named: t.name) else {
                out.append(DevelopmentAddition(recordType: t.name, field: nil, fieldType: nil, isEncrypted: false))
                for f in t.fields { out.append(DevelopmentAddition(recordType: t.name, field: f.name, fieldType: f.type.description, isEncrypted: f.isEncrypted)) }
                continue
            }
            for f in t.fields where old.field(named: f.name) == nil {
                out.append(DevelopmentAddition(recordType: t.name, field: f.name, fieldType: f.type.description, isEncrypted: f.isEncrypted))
            }
        }
        return out
    }

    // MARK: Faults and errors

    func fault(_ op: CloudOperation) throws(CloudKitError) {
        guard var queue = faults[op], !queue.isEmpty else { return }
        let f = queue.removeFirst()
        faults[op] = queue
        throw f.error
    }

    static func zoneNotFound(_ zone: String) -> CloudKitError {
        CloudKitError(.zoneNotFound, "Zone '\(zone)' does not exist", rule: RuntimeRules.zoneNotFound.code)
    }

    /// A store or loader failure as CloudKit's internal error, with ckschema's words.
    static func error(from error: any Error, doing: String) -> CloudKitError {
        if let e = error as? CloudKitError { return e }
        if let e = error as? InputError {
            let d = e.diagnostics.first
            return CloudKitError(.internalError, "could not \(doing): " + (d?.message ?? "\(e)"), rule: d?.code)
        }
        return CloudKitError(.internalError, "could not \(doing): \(error)")
    }

    private func zoneExists(_ zone: String, _ scope: CloudDatabaseScope) throws(CloudKitError) -> Bool {
        if zone == CloudZone.defaultName { return true }
        return try schema(scope).zone(named: zone) != nil
    }

    // MARK: Reading records

    /// One stored record, or nil.
    private func read(_ scope: CloudDatabaseScope, zone: String, name: String) throws(CloudKitError) -> CloudRecord? {
        let store = try store(scope)
        let schema = try schema(scope)
        do {
            let rows = try store.queryRows(RecordsTable.selectRows + " WHERE \(C.env) = ?1 AND \(C.zone) = ?2 AND \(C.recordName) = ?3",
                                           [.text(env.rawValue), .text(zone), .text(name)])
            guard let row = try rows.next() else { return nil }
            let stored = try rows.withFields { try JSONValue.parse($0) }
            return RecordCoding.record(row, stored: stored, type: schema.recordType(named: row.recordType))
        } catch {
            throw Self.error(from: error, doing: "read a record")
        }
    }

    /// The scope's record types by name.
    private func recordTypesByName(_ scope: CloudDatabaseScope) throws(CloudKitError) -> [String: RecordType] {
        var types: [String: RecordType] = [:]
        for t in try schema(scope).recordTypes { types[t.name] = t }
        return types
    }

    /// Many records of one zone, by name: one statement per 500 names (every name bound).
    private func read(_ scope: CloudDatabaseScope, zone: String, names: [String]) throws(CloudKitError) -> [String: CloudRecord] {
        let store = try store(scope)
        var out: [String: CloudRecord] = [:]
        let types = try recordTypesByName(scope)
        var start = 0
        while start < names.count {
            let chunk = names[start..<min(names.count, start + 500)]
            start += 500
            let marks = (0..<chunk.count).map { "?\($0 + 3)" }.joined(separator: ", ")
            do {
                let rows = try store.queryRows(RecordsTable.selectRows + " WHERE \(C.env) = ?1 AND \(C.zone) = ?2 AND \(C.recordName) IN (\(marks))",
                                               [.text(env.rawValue), .text(zone)] + chunk.map { .text($0) })
                while let row = try rows.next() {
                    let stored = try rows.withFields { try JSONValue.parse($0) }
                    out[row.recordName] = RecordCoding.record(row, stored: stored, type: types[row.recordType])
                }
            } catch {
                throw Self.error(from: error, doing: "read records")
            }
        }
        return out
    }

    func fetch(_ scope: CloudDatabaseScope, _ ids: [CloudRecord.ID]) throws(CloudKitError) -> SaveResults {
        var out: SaveResults = [:]
        for id in ids {
            guard try zoneExists(id.zoneName, scope) else { out[id] = .failure(Self.zoneNotFound(id.zoneName)); continue }
            if let r = try read(scope, zone: id.zoneName, name: id.recordName) {
                out[id] = .success(r)
            } else {
                out[id] = .failure(CloudKitError(.unknownItem, "Record not found", rule: RecordDeleter.notFound.code))
            }
        }
        return out
    }

    // MARK: Saving and deleting

    func modifyRecords(_ scope: CloudDatabaseScope, saving: [CloudRecord], deleting: [CloudRecord.ID], policy: SavePolicy,
                       atomically: Bool) throws(CloudKitError) -> (saveResults: SaveResults, deleteResults: DeleteResults) {
        try fault(.modifyRecords)
        let items = saving.count + deleting.count
        if items > Self.maxItems {
            throw CloudKitError(.limitExceeded, "Your request contains \(items) items which is more than the maximum number of items in a single request (\(Self.maxItems))",
                                rule: RecordsRules.batchTooManyItems.code)
        }
        var saveResults: SaveResults = [:]
        var passed: [Int] = []
        var lines: [String] = []
        passed.reserveCapacity(saving.count)
        lines.reserveCapacity(saving.count)
        var bytes = 0
        for (i, r) in saving.enumerated() {
            if let refusal = try precheck(r, scope) { saveResults[r.id] = .failure(refusal); continue }
            let line = RecordCoding.line(r)
            bytes += line.utf8.count
            passed.append(i)
            lines.append(line)
        }
        // The records the import sees: all of them (no copy) unless the precheck refused one.
        let toSave = passed.count == saving.count ? saving : passed.map { saving[$0] }
        if bytes > Self.maxRequestBytes {
            throw CloudKitError(.limitExceeded, "Request is too large: \(bytes) bytes of record data, more than CloudKit's 2 MB per request",
                                rule: RecordsRules.batchTooLarge.code)
        }
        if !toSave.isEmpty {
            let saved = try importRecords(toSave, lines: lines, scope, policy: policy, atomically: atomically)
            // Usually no record was refused before the import: the import's answers are all of them.
            if saveResults.isEmpty { saveResults = saved } else { saveResults.merge(saved, uniquingKeysWith: { a, _ in a }) }
        }
        let deleteResults = try delete(deleting, scope)
        return (saveResults, deleteResults)
    }

    /// What is refused before the importer sees the record: the public database's encryption
    /// rule (lint's CK107, `CloudKitRules`), and in development a new record type is created
    /// just in time (CloudKit's development schema) under a name CloudKit accepts.
    private func precheck(_ r: CloudRecord, _ scope: CloudDatabaseScope) throws(CloudKitError) -> CloudKitError? {
        var schema = try schema(scope)
        if scope == .public {
            let type = schema.recordType(named: r.recordType) ?? RecordType(name: r.recordType)
            for key in r.encrypted.keys {
                let f = type.field(named: key) ?? Field(name: key, type: FieldType(.string), isEncrypted: true)
                var encrypted = f
                encrypted.isEncrypted = true
                if let v = CloudKitRules.indexAndEncryptionViolations(encrypted, in: type, database: .public, notation: .yaml)
                    .first(where: { $0.rule == .encryptedInPublicDatabase }) {
                    return CloudKitError(.invalidArguments, v.message, rule: v.rule.info.code)
                }
            }
            if let denied = try permissionDenied(r, type: type, scope) { return denied }
        }
        if env == .development, !schema.recordTypes.contains(where: { $0.name == r.recordType }) {
            if let v = CloudKitRules.recordTypeNameViolation(r.recordType) {
                return CloudKitError(.invalidArguments, v.message, rule: v.rule.info.code)
            }
            schema.recordTypes.append(RecordType(name: r.recordType))
            try write(schema, scope)
            for other in stores.keys where other != scope {
                var s = schemas[other]!
                s.recordTypes = schema.recordTypes
                try write(s, other)
            }
        }
        return nil
    }

    /// The public database's security roles (the schema's grants; CloudKit's defaults when it
    /// names none: _world read, _icloud create, _creator write): the fake's user is one
    /// authenticated iCloud user (_world and _icloud) and the creator of every record it
    /// saved (_creator), in no custom role. Creating a record needs `create`, changing one
    /// `write`; otherwise permissionFailure 10 ("typically occurs in the public database ...
    /// You have roles for record types", developer.apple.com/documentation/cloudkit/ckerror/code/permissionfailure).
    private func permissionDenied(_ r: CloudRecord, type: RecordType, _ scope: CloudDatabaseScope) throws(CloudKitError) -> CloudKitError? {
        guard !type.grants.isEmpty else { return nil }
        let exists: Bool
        // The row's type and tag only, not its fields: whether it exists is the question.
        do { exists = try store(scope).recordRow(env: env, zone: r.id.zoneName, name: r.id.recordName) != nil } catch {
            throw Self.error(from: error, doing: "read a record")
        }
        return Self.permissionDenied(type, exists ? .write : .create)
    }

    /// permissionFailure 10 unless a role the fake's user holds has `permission` on the type.
    static func permissionDenied(_ type: RecordType, _ permission: Permission) -> CloudKitError? {
        guard !type.grants.isEmpty else { return nil }
        let mine: Set<String> = permission == .create ? ["_world", "_icloud"] : ["_world", "_icloud", "_creator"]
        if type.grants.contains(where: { mine.contains($0.role) && $0.permissions.contains(permission) }) { return nil }
        let verb = permission == .create ? "CREATE" : "WRITE"
        return CloudKitError(.permissionFailure, "\(verb) operation not permitted: no role of this user has \(permission.rawValue) on record type '\(type.name)' in the public database")
    }

    /// Saves the records through `records import` (one request: its lines, in memory),
    /// then reads back each one saved, and maps each refusal to CloudKit's error.
    private func importRecords(_ records: [CloudRecord], lines: [String], _ scope: CloudDatabaseScope, policy: SavePolicy,
                               atomically: Bool) throws(CloudKitError) -> SaveResults {
        let store = try store(scope)
        var options = RecordImporter.Options(environment: env, savePolicy: Self.policy(policy), batchSize: Self.maxItems)
        options.checksRecordZones = false
        // CloudKit's: a deleteSelf reference's target must exist or be saved in the same
        // request (CK558, referenceViolation), and `atomically` is CKModifyRecordsOperation.isAtomic.
        options.checksReferenceTargets = true
        options.isAtomic = atomically
        // The saved records come back with the result, as stored (a merge is read back).
        options.reportsSaved = true
        let result: RecordImporter.Result
        do {
            result = try RecordImporter.importRecords(lines: lines, source: "<request>", into: store, options: options)
        } catch {
            throw Self.error(from: error, doing: "save records")
        }
        // Each error names its record by line (line N is records[N - 1]).
        var errors = [[Diagnostic]](repeating: [], count: records.count)
        for d in result.diagnostics where d.severity == .error {
            guard let line = d.location?.line, line >= 1, line <= records.count else { continue }
            errors[line - 1].append(d)
        }
        if env == .development { try refreshTypes(from: scope) }
        // Each saved record as the importer wrote it (typed by the schema development may have
        // grown); one whose keys were merged into the stored record's is read back, by zone.
        var saved: [CloudRecord?] = Array(repeating: nil, count: records.count)
        var merged: [String: [(index: Int, name: String)]] = [:]
        let types = try recordTypesByName(scope)
        for s in result.savedRecords where s.line >= 1 && s.line <= records.count {
            if let fields = s.fields {
                saved[s.line - 1] = RecordCoding.record(s.row, fields: fields, type: types[s.row.recordType])
            } else {
                merged[s.row.zone, default: []].append((s.line - 1, s.row.recordName))
            }
            if let old = s.replaced {
                let stored: JSONValue
                do { stored = try JSONValue.parse(old.fields) } catch { throw Self.error(from: error, doing: "read a record") }
                versions[old.row.changeTag] = RecordCoding.record(old.row, stored: stored, type: types[old.row.recordType])
            }
        }
        for (zone, list) in merged {
            let read = try read(scope, zone: zone, names: list.map(\.name))
            for m in list { saved[m.index] = read[m.name] }
        }
        var out: SaveResults = [:]
        out.reserveCapacity(records.count)
        for (i, r) in records.enumerated() {
            if !errors[i].isEmpty {
                let ds = errors[i]
                out[r.id] = .failure(try cloudError(ds, record: r, number: i + 1, scope))
            } else if let saved = saved[i] {
                out[r.id] = .success(saved)
            } else {
                out[r.id] = .failure(CloudKitError(.internalError, "the record was saved but cannot be read back"))
            }
        }
        return out
    }

    static func policy(_ p: SavePolicy) -> RecordImporter.SavePolicy {
        switch p {
        case .ifServerRecordUnchanged: .ifServerRecordUnchanged
        case .changedKeys: .changedKeys
        case .allKeys: .allKeys
        }
    }

    /// The rules whose refusal CloudKit gives as 12 with server code 2006 (the schema lacks the
    /// type or field): the validator's and the importer's.
    static let schemaRefusals: Set<String> = [RecordsRules.unknownRecordType.code, RecordsRules.unknownFieldProduction.code,
                                             StoreRules.recordUnknownType.code, StoreRules.recordUnknownField.code]

    /// CloudKit's error for a record the importer refused: the refusal that decides (a missing
    /// type or field before any other; else the record's own first error, which the importer
    /// gives last) in CloudKit's code and words.
    private func cloudError(_ ds: [Diagnostic], record r: CloudRecord, number: Int, _ scope: CloudDatabaseScope) throws(CloudKitError) -> CloudKitError {
        let d = ds.first(where: { Self.schemaRefusals.contains($0.code) }) ?? ds.last!
        let text = Self.ownWords(d.message)
        switch d.code {
        case RecordsRules.unknownRecordType.code, StoreRules.recordUnknownType.code:
            return CloudKitError(.invalidArguments, serverCode: 2006, "Cannot create new type \(r.recordType) in production schema", rule: d.code)
        case RecordsRules.unknownFieldProduction.code, StoreRules.recordUnknownField.code:
            let field = Self.field(in: d.message) ?? "?"
            return CloudKitError(.invalidArguments, serverCode: 2006, "Cannot create or modify field '\(field)' in record '\(r.recordType)' in production schema", rule: d.code)
        case RecordsRules.recordTooLarge.code, RecordsRules.deleteSelfLimit.code, RecordsRules.assetTooLarge.code:
            return CloudKitError(.limitExceeded, text, rule: d.code)
        case StoreRules.recordUnknownZone.code:
            return CloudKitError(.zoneNotFound, "Zone '\(r.id.zoneName)' does not exist", rule: d.code)
        case StoreRules.recordReferenceTargetMissing.code:
            return CloudKitError(.referenceViolation, text, rule: d.code)
        case StoreRules.recordBatchFailed.code:
            return CloudKitError(.batchRequestFailed, "Record \(r.id.recordName) not saved: another record of the atomic batch failed", rule: d.code)
        case StoreRules.recordConflict.code where d.message.contains("conflict saving it"):
            var e = CloudKitError(.serverRecordChanged, serverCode: 2004, "record to insert already exists", rule: d.code)
            if let tag = r.recordChangeTag { e.message = "client oplock error updating record"; e.ancestorRecord = versions[tag] }
            e.serverRecord = try read(scope, zone: r.id.zoneName, name: r.id.recordName)
            e.clientRecord = r
            return e
        default:
            return CloudKitError(.invalidArguments, text, rule: d.code)
        }
    }

    /// A message without the importer's `record #N 'name', field 'f': ` prefix.
    static func ownWords(_ message: String) -> String {
        guard message.hasPrefix("record #"), let r = message.range(of: "': ") ?? message.range(of: ": ") else { return message }
        return String(message[r.upperBound...])
    }

    /// The field a composed message names (`, field 'x': `).
    static func field(in message: String) -> String? {
        guard let start = message.range(of: ", field '") else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.range(of: "': ") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// Deletes through `records delete`, zone by zone; a missing record is unknownItem.
    private func delete(_ ids: [CloudRecord.ID], _ scope: CloudDatabaseScope) throws(CloudKitError) -> DeleteResults {
        guard !ids.isEmpty else { return [:] }
        let store = try store(scope)
        var out: DeleteResults = [:]
        var zones: [String] = []
        var byZone: [String: [CloudRecord.ID]] = [:]
        for id in ids {
            if byZone[id.zoneName] == nil { zones.append(id.zoneName) }
            byZone[id.zoneName, default: []].append(id)
        }
        let schema = try schema(scope)
        for zone in zones {
            var group = byZone[zone]!
            guard try zoneExists(zone, scope) else {
                for id in group { out[id] = .failure(Self.zoneNotFound(zone)) }
                continue
            }
            if scope == .public {
                // Deleting needs `write`, as changing does (the public database's roles).
                do {
                    group = try group.filter { id in
                        guard let type = try store.recordRow(env: env, zone: zone, name: id.recordName)?.recordType,
                              let t = schema.recordType(named: type), let denied = Self.permissionDenied(t, .write) else { return true }
                        out[id] = .failure(denied)
                        return false
                    }
                } catch {
                    throw Self.error(from: error, doing: "read a record")
                }
                if group.isEmpty { continue }
            }
            // The versions deleted: a client that saves one again after it is re-created
            // conflicts with this ancestor.
            for r in try read(scope, zone: zone, names: group.map(\.recordName)).values {
                if let tag = r.recordChangeTag { versions[tag] = r }
            }
            let result: RecordDeleter.Result
            do { result = try RecordDeleter.delete(names: group.map(\.recordName), zone: zone, from: store, environment: env) } catch {
                throw Self.error(from: error, doing: "delete records")
            }
            let missing = Set(result.diagnostics.map(\.message))
            for id in group {
                let notFound = "Record not found: \(JSONValue.string(id.recordName).text) in zone '\(ControlCharacters.escaped(zone))'"
                out[id] = missing.contains(notFound) ? .failure(CloudKitError(.unknownItem, "Record not found", rule: RecordDeleter.notFound.code)) : .success(())
            }
        }
        return out
    }

    // MARK: Zones

    private static func database(_ scope: CloudDatabaseScope) -> Database {
        switch scope {
        case .public: .public
        case .private: .private
        case .shared: .shared
        }
    }

    func allZones(_ scope: CloudDatabaseScope) throws(CloudKitError) -> [CloudZone] {
        try fault(.modifyRecordZones)
        let zones = try schema(scope).zones
        return [CloudZone(name: CloudZone.defaultName, capabilities: [])] + zones.map { z in
            var caps: CloudZone.Capabilities = []
            if z.capabilities.contains(.fetchChanges) { caps.insert(.fetchChanges) }
            if z.capabilities.contains(.atomic) { caps.insert(.atomic) }
            if z.capabilities.contains(.sharing) { caps.insert(.sharing) }
            return CloudZone(name: z.name, capabilities: caps)
        }
    }

    func modifyZones(_ scope: CloudDatabaseScope, saving: [CloudZone], deleting: [String]) throws(CloudKitError)
        -> (saveResults: [String: Result<CloudZone, CloudKitError>], deleteResults: [String: Result<Void, CloudKitError>]) {
        try fault(.modifyRecordZones)
        var schema = try schema(scope)
        var saved: [String: Result<CloudZone, CloudKitError>] = [:]
        var deleted: [String: Result<Void, CloudKitError>] = [:]
        for z in saving {
            // CKRecordZone: custom zones exist only in the private database (the shared one holds others' zones).
            if scope != .private {
                saved[z.name] = .failure(CloudKitError(.invalidArguments, "Custom zones are not supported in the \(scope.rawValue) database"))
                continue
            }
            if let v = CloudKitRules.zoneNameViolation(z.name) {
                saved[z.name] = .failure(CloudKitError(.invalidArguments, v.message, rule: v.rule.info.code))
                continue
            }
            var caps: Set<ZoneCapability> = []
            if z.capabilities.contains(.fetchChanges) { caps.insert(.fetchChanges) }
            if z.capabilities.contains(.atomic) { caps.insert(.atomic) }
            if z.capabilities.contains(.sharing) { caps.insert(.sharing) }
            schema.zones.removeAll { $0.name == z.name }
            schema.zones.append(Zone(name: z.name, database: Self.database(scope), capabilities: caps))
            saved[z.name] = .success(z)
        }
        let store = try store(scope)
        for name in deleting {
            guard schema.zone(named: name) != nil else { deleted[name] = .failure(Self.zoneNotFound(name)); continue }
            do {
                var names: [String] = []
                let rows = try store.zoneRows(env: env, zone: name, since: nil)
                while let row = try rows.next() { names.append(row.recordName) }
                if !names.isEmpty { _ = try RecordDeleter.delete(names: names, zone: name, from: store, environment: env) }
            } catch {
                throw Self.error(from: error, doing: "delete the zone's records")
            }
            schema.zones.removeAll { $0.name == name }
            epochs[scope.rawValue + "/" + name, default: 0] += 1
            deleted[name] = .success(())
        }
        try write(schema, scope)
        return (saved, deleted)
    }

    // MARK: Queries

    static func argument(_ v: CloudValue) throws(CloudKitError) -> QueryPredicateArgument {
        switch v {
        case .string(let s): return .string(s)
        case .int64(let i): return .int(i)
        case .double(let d): return .double(d)
        case .timestamp(let date):
            guard let i = RecordCoding.milliseconds(date) else { throw CloudKitError(.invalidArguments, "Invalid date argument") }
            return .date(i)
        case .location(let lat, let lon): return .location(latitude: lat, longitude: lon)
        case .reference(let name, _), .referenceInZone(let name, _, _): return .string(name)
        case .list(let items):
            var out: [QueryPredicateArgument] = []
            for item in items { out.append(try argument(item)) }
            return .list(out)
        case .bytes, .asset: throw CloudKitError(.invalidArguments, "Invalid predicate argument: bytes and assets cannot be compared")
        }
    }

    /// `ckschema query`'s refusal in CloudKit's code: an index a query needs is 12/2015.
    static func queryError(_ d: Diagnostic) -> CloudKitError {
        switch d.code {
        case PredicateRules.needsIndex.code, RuntimeRules.notSortable.code:
            return CloudKitError(.invalidArguments, serverCode: 2015, d.message, rule: d.code)
        case RuntimeRules.unknownType.code:
            return CloudKitError(.unknownItem, serverCode: 2003, d.message.components(separatedBy: ";").first ?? d.message, rule: d.code)
        case RuntimeRules.zoneNotFound.code:
            return CloudKitError(.zoneNotFound, d.message, rule: d.code)
        default:
            return CloudKitError(.invalidArguments, d.message, rule: d.code)
        }
    }

    func query(_ c: CloudQueryCursor) throws(CloudKitError) -> (matchResults: [(CloudRecord.ID, Result<CloudRecord, CloudKitError>)], cursor: CloudQueryCursor?) {
        let store = try store(c.database)
        var arguments: [QueryPredicateArgument] = []
        for a in c.query.arguments { arguments.append(try Self.argument(a)) }
        if let limit = c.limit, limit < 1 { throw CloudKitError(.invalidArguments, "resultsLimit must be at least 1") }
        let (end, overflow) = c.offset.addingReportingOverflow((c.limit ?? Int.max - 1) + 1)
        let q = RecordQuery(recordType: c.query.recordType, predicate: c.query.predicate, arguments: arguments,
                            sort: c.query.sortedBy.map { RecordQuery.Sort(field: $0.key, descending: !$0.ascending) },
                            zone: c.zone, environment: env, limit: c.limit == nil || overflow ? nil : end)
        var keys: [(zone: String, name: String)] = []
        let outcome: StoreQuery.Outcome
        do {
            outcome = try StoreQuery.run(q, store: store) { line in
                let json = try JSONValue.parse(line)
                keys.append((json["zoneID"]?["zoneName"]?.stringValue ?? CloudZone.defaultName, json["recordName"]?.stringValue ?? ""))
            }
        } catch {
            throw Self.error(from: error, doing: "run the query")
        }
        if case .refused(let ds) = outcome, let d = ds.first { throw Self.queryError(d) }
        var page: [(CloudRecord.ID, Result<CloudRecord, CloudKitError>)] = []
        let from = min(c.offset, keys.count)
        let to = c.limit.map { min(keys.count, from + $0) } ?? keys.count
        let slice = keys[from..<to]
        var found: [String: [String: CloudRecord]] = [:]
        for zone in Set(slice.map(\.zone)) { found[zone] = try read(c.database, zone: zone, names: slice.filter { $0.zone == zone }.map(\.name)) }
        for k in slice {
            guard let r = found[k.zone]?[k.name] else { continue }
            page.append((r.id, .success(r)))
        }
        let more = to < keys.count
        return (page, more ? CloudQueryCursor(query: c.query, zone: c.zone, offset: to, limit: c.limit, database: c.database) : nil)
    }

    // MARK: Zone changes

    func zoneChanges(_ scope: CloudDatabaseScope, zone: String, since token: CloudChangeToken?, limit: Int?) throws(CloudKitError)
        -> (modifications: [CloudRecord], deletions: [CloudRecord.ID], changeToken: CloudChangeToken, moreComing: Bool) {
        try fault(.recordZoneChanges)
        let store = try store(scope)
        let epoch = epochs[scope.rawValue + "/" + zone, default: 0]
        if let token {
            guard token.zone == zone, token.database == scope else {
                throw CloudKitError(.invalidArguments, "The change token was issued for another zone", rule: RuntimeRules.badToken.code)
            }
            guard token.epoch == epoch else {
                throw CloudKitError(.changeTokenExpired, "Change Token Expired: the zone was deleted since the token was issued")
            }
        }
        if let limit, limit < 1 { throw CloudKitError(.invalidArguments, "resultsLimit must be at least 1") }
        enum Item {
            case deleted(String)
            case record(RecordRows.Row, JSONValue)
        }
        var items: [Item] = []
        var storeToken: String?
        let outcome: ZoneChanges.Outcome
        let schema = try schema(scope)
        do {
            // The store's changes as rows (`ckschema changes` without its lines).
            outcome = try ZoneChanges.changes(store: store, schema: schema, environment: env, zone: zone, since: token?.storeToken) { change in
                switch change {
                case .deleted(let name): items.append(.deleted(name))
                case .record(let row, let fields): items.append(.record(row, fields))
                case .token(let t): storeToken = t
                }
            }
        } catch {
            if error.diagnostics.first?.code == RuntimeRules.badToken.code {
                throw CloudKitError(.changeTokenExpired, "Change Token Expired", rule: RuntimeRules.badToken.code)
            }
            throw Self.error(from: error, doing: "fetch zone changes")
        }
        if case .refused(let ds) = outcome, let d = ds.first {
            switch d.code {
            case RuntimeRules.zoneNotFound.code: throw CloudKitError(.zoneNotFound, "Zone '\(zone)' does not exist", rule: d.code)
            default: throw CloudKitError(.invalidArguments, d.message, rule: d.code)
            }
        }
        let skip = min(token?.skip ?? 0, items.count)
        let rest = items[skip...]
        let taken = limit.map { Array(rest.prefix($0)) } ?? Array(rest)
        let more = taken.count < rest.count
        var modifications: [CloudRecord] = []
        var deletions: [CloudRecord.ID] = []
        let types = try recordTypesByName(scope)
        modifications.reserveCapacity(taken.count)
        for item in taken {
            switch item {
            case .deleted(let name): deletions.append(CloudRecord.ID(recordName: name, zoneName: zone))
            case .record(let row, let stored):
                modifications.append(RecordCoding.record(row, stored: stored, type: types[row.recordType]))
            }
        }
        let next = more ? CloudChangeToken(zone: zone, database: scope, epoch: epoch, storeToken: token?.storeToken, skip: skip + taken.count)
                        : CloudChangeToken(zone: zone, database: scope, epoch: epoch, storeToken: storeToken, skip: 0)
        return (modifications, deletions, next, more)
    }

    // MARK: Subscriptions and notifications

    func saveSubscription(_ scope: CloudDatabaseScope, _ sub: CloudSubscription) throws(CloudKitError) -> CloudSubscription {
        try fault(.subscriptions)
        var schema = try schema(scope)
        let model: Subscription
        switch sub.kind {
        case .query(let type, let predicate, let events):
            // The query it watches must be one CloudKit runs: `ckschema query`'s compile says.
            let q = RecordQuery(recordType: type, predicate: predicate, environment: env)
            if case .failure(let refusal) = StoreQuery.compile(q, schema: schema, searchTables: [:]), let d = refusal.diagnostics.first {
                throw Self.queryError(d)
            }
            model = Subscription(id: sub.id, kind: .query, database: Self.database(scope), recordType: type, predicate: predicate,
                                 firesOn: Set(events.map { Subscription.Event(rawValue: $0.rawValue)! }))
        case .zone(let zone):
            guard try zoneExists(zone, scope) else { throw Self.zoneNotFound(zone) }
            model = Subscription(id: sub.id, kind: .zone, database: Self.database(scope), zone: zone)
        case .database:
            model = Subscription(id: sub.id, kind: .database, database: Self.database(scope))
        }
        schema.subscriptions.removeAll { $0.id == sub.id }
        schema.subscriptions.append(model)
        try write(schema, scope)
        return sub
    }

    func deleteSubscription(_ scope: CloudDatabaseScope, _ id: String) throws(CloudKitError) {
        try fault(.subscriptions)
        var schema = try schema(scope)
        guard schema.subscriptions.contains(where: { $0.id == id }) else { throw CloudKitError(.unknownItem, "Subscription not found: \(id)") }
        schema.subscriptions.removeAll { $0.id == id }
        try write(schema, scope)
    }

    func allSubscriptions(_ scope: CloudDatabaseScope) throws(CloudKitError) -> [CloudSubscription] {
        try fault(.subscriptions)
        let subscriptions = try schema(scope).subscriptions
        return subscriptions.map { s in
            switch s.kind {
            case .query:
                return CloudSubscription(id: s.id, kind: .query(recordType: s.recordType ?? "", predicate: s.predicate ?? "TRUEPREDICATE",
                                                                firesOn: Set(s.firesOn.compactMap { CloudSubscription.Event(rawValue: $0.rawValue) })))
            case .zone: return CloudSubscription(id: s.id, kind: .zone(s.zone ?? CloudZone.defaultName))
            case .database: return CloudSubscription(id: s.id, kind: .database)
            }
        }
    }

    func notifications(_ scope: CloudDatabaseScope) throws(CloudKitError) -> [CloudNotification] {
        let store = try store(scope)
        var out: [CloudNotification] = []
        do {
            try NotificationLog.read(store: store, environment: env) { line in
                let json = try JSONValue.parse(line)
                let id = json["recordID"].map { CloudRecord.ID(recordName: $0["recordName"]?.stringValue ?? "", zoneName: $0["zoneName"]?.stringValue ?? CloudZone.defaultName) }
                out.append(CloudNotification(subscriptionID: json["subscriptionID"]?.stringValue ?? "",
                                             reason: json["queryNotificationReason"]?.stringValue ?? json["notificationType"]?.stringValue ?? "",
                                             recordID: id, zoneName: json["recordZoneID"]?["zoneName"]?.stringValue ?? id?.zoneName))
            }
        } catch {
            throw Self.error(from: error, doing: "read notifications")
        }
        return out
    }
}

/// One prepared in-memory store per schema and environment, process-wide: a new fake's database
/// is a copy of it (`Store(inMemoryCopyOf:)`, SQLite's backup API) rather than a store whose
/// tables, schema and indexes are written again (issue 33: a fake per test is cheap). Copies
/// are made under the lock: the template's connection is used by one thread at a time.
final class StoreTemplates: @unchecked Sendable {
    static let shared = StoreTemplates()
    static let limit = 32

    private struct Key: Hashable {
        var schema: Schema
        var env: Environment
    }

    private let lock = NSLock()
    private var templates: [Key: Store] = [:]

    func copy(of schema: Schema, env: Environment) throws -> Store {
        lock.lock()
        defer { lock.unlock() }
        let key = Key(schema: schema, env: env)
        if let t = templates[key] { return try Store(inMemoryCopyOf: t) }
        let t = try Store(path: ":memory:")
        try t.db.transaction { try t.writeSchema(schema, env: env) }
        if templates.count >= Self.limit { templates.removeAll() }
        templates[key] = t
        return try Store(inMemoryCopyOf: t)
    }
}
