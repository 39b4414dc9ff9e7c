import Foundation

/// `records import`: saves NDJSON records (CloudKit Web Services shape) into a store
/// environment with CloudKit's save semantics.
///
/// Records are checked against the environment's schema (known type and zone, each value's
/// type; production refuses unknown fields, development adds them to its schema as CloudKit's
/// just-in-time schema does). They are saved in batches of at most 400 (CloudKit's per-request
/// limit); in a zone with the `atomic` capability a batch's records in that zone are saved all or
/// none. The whole import is one SQLite transaction: a crash or kill leaves the store as it was.
public enum RecordImporter {
    /// `CKModifyRecordsOperation.RecordSavePolicy`.
    public enum SavePolicy: String, Sendable, CaseIterable {
        /// Saving over an existing record needs its current change tag; otherwise a conflict.
        case ifServerRecordUnchanged
        /// Overwrites only the keys the incoming record has.
        case changedKeys
        /// Replaces every key with the incoming record's.
        case allKeys
    }

    public struct Options: Sendable {
        public var environment: Environment
        public var savePolicy: SavePolicy
        /// At most 400: CloudKit's limit of records per modify request.
        public var batchSize: Int

        /// Runs the validate command's record checks (CK4xx) before the importer's own (CK55x).
        /// Only tests switch it off, to reach the importer's own checks.
        var runsRecordChecks = true

        public init(environment: Environment = .development, savePolicy: SavePolicy = .ifServerRecordUnchanged, batchSize: Int = 400) {
            self.environment = environment
            self.savePolicy = savePolicy
            self.batchSize = min(max(1, batchSize), 400)
        }
    }

    public struct Result: Sendable {
        public var saved = 0
        public var failed = 0
        public var batches = 0
        /// Every record that failed (with its line), and notes for fields added in development.
        public var diagnostics: [Diagnostic] = []
    }

    /// One parsed record of a batch.
    private struct Incoming {
        var line: Int
        /// The record's number in its file, as `validate` counts it.
        var number: Int
        var file: String
        var name: String
        var type: String
        var zone: String
        var changeTag: String?
        var fields: [(String, StoreJSON)]
        var error: Diagnostic?
        var storedFields: String = "{}"
    }

    /// Imports the files in order. Throws `InputError` for an unreadable file or store; records
    /// that fail are reported in the result (exit 1), the others are saved.
    public static func importFiles(_ paths: [String], into store: Store, options: Options) throws(InputError) -> Result {
        var result = Result()
        let env = options.environment
        var schema = try store.schema(env)
        let schemaBefore = schema
        var addedFields: [String: SourceLocation] = [:]
        try store.guarded("import records") {
            // A 64 MB page cache keeps a large import from spilling dirty pages to disk mid-transaction.
            let cache = try store.db.scalar("PRAGMA cache_size")?.integer ?? -2000
            try store.db.execute("PRAGMA cache_size = -65536")
            defer { try? store.db.execute("PRAGMA cache_size = \(cache)") }
            try store.db.transaction {
                try store.db.run("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'sequence'")
                let seq = String(Int(try store.db.scalar("SELECT value FROM meta WHERE key = 'sequence'")?.text ?? "0") ?? 0, radix: 36)
                var counter = 0
                let writer = try Writer(store: store, env: env)
                // The environment's subscriptions, evaluated around each batch (nil: none, no cost).
                let recorder = try NotificationRecorder(store: store, env: env, schema: schema)
                // The validate command's checks run first on every record (names, value types,
                // encryption, references, size; CK4xx); the importer's own checks follow.
                var checker = RecordChecker(schema: CompiledSchema(schema), production: env == .production, collectBatch: false)
                for path in paths {
                    let file = NDJSONLines.displayName(path)
                    var batch: [Incoming] = []
                    batch.reserveCapacity(options.batchSize)
                    func flush() throws {
                        guard !batch.isEmpty else { return }
                        result.batches += 1
                        try saveBatch(&batch, schema: schema, writer: writer, recorder: recorder, options: options, seq: seq, counter: &counter, result: &result)
                        batch.removeAll(keepingCapacity: true)
                    }
                    var number = 0
                    try NDJSONLines.read(path: path) { item in
                        let line: Int, slice: UnsafeRawBufferPointer
                        switch item {
                        case .tooLong(let l, let message):
                            // The same CK400 validate gives; the line is never held whole.
                            number += 1
                            result.failed += 1
                            result.diagnostics.append(.error(RecordsRules.syntax.code, ValidationRun.compose(number: number, nil, nil, message),
                                                             at: SourceLocation(file: file, line: l, column: 1)))
                            return
                        case .line(let l, let bytes):
                            line = l
                            slice = bytes
                        }
                        if slice.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { return }
                        number += 1
                        var checked = ChunkResult()
                        if options.runsRecordChecks, let base = slice.baseAddress {
                            checker.check(base.assumingMemoryBound(to: UInt8.self), slice.count, index: 0,
                                          position: .bytes(line: 0, column: 1), into: &checked)
                        }
                        var validatorErrors: [Diagnostic] = []
                        for d in checked.diagnostics where d.severity != .note {
                            // Named as validate names them: record number, name and field.
                            let message = d.recordIndex < 0 ? d.message : ValidationRun.compose(number: number, d.recordName, d.field, d.message)
                            let diag = Diagnostic(code: d.code, severity: d.severity, location: SourceLocation(file: file, line: line + d.line, column: d.column),
                                                  message: message, fix: d.fix)
                            if d.severity == .error { validatorErrors.append(diag) } else { result.diagnostics.append(diag) }
                        }
                        // The fields the validator would add in development, with the type and
                        // encryption it infers: `validate --infer` and the import agree.
                        var inferred: [String: InferredObservation] = [:]
                        for o in checked.inferred { if let f = o.field { inferred[f] = o } }
                        var (rec, additions) = parse(slice, line: line, number: number, file: file, schema: schema, env: env, inferred: inferred)
                        if let first = validatorErrors.first {
                            // Parsed only for its zone (atomic batches); a failed record adds nothing to the schema.
                            rec.error = first
                            result.diagnostics += validatorErrors.dropFirst()
                        } else if rec.error == nil, !additions.isEmpty, let t = schema.recordTypes.firstIndex(where: { $0.name == rec.type }) {
                            schema.recordTypes[t].fields += additions
                            for f in additions {
                                let key = "\(rec.type).\(f.name) (\(f.type)\(f.isEncrypted ? ", encrypted" : ""))"
                                if addedFields[key] == nil { addedFields[key] = SourceLocation(file: file, line: line, column: 1) }
                            }
                        }
                        if rec.error == nil { rec.storedFields = StoreJSON.object(rec.fields).text }
                        batch.append(rec)
                        if batch.count >= options.batchSize { try flush() }
                    }
                    try flush()
                }
                if schema != schemaBefore { try store.writeSchema(schema, env: env) }
            }
        }
        for (key, at) in addedFields.sorted(by: { $0.key < $1.key }) {
            result.diagnostics.append(Diagnostic(code: StoreRules.recordNewField.code, severity: .note, location: at,
                                                 message: "development added field \(key) to its schema, as CloudKit does for a record with a new key",
                                                 fix: "add it to Schemas/ and write a migration (`ckschema migrate new`), or production will refuse it"))
        }
        return result
    }

    /// Parses one NDJSON line into a record, checking it against the schema. Fields under
    /// `encryptedValues`, with an `ENCRYPTED_` type or `"isEncrypted": true` are encrypted; a
    /// new field (development) keeps that encryption, and is added to `schema` only when the
    /// whole record parses.
    private static func parse(_ bytes: UnsafeRawBufferPointer, line: Int, number: Int, file: String, schema: Schema, env: Environment,
                              inferred: [String: InferredObservation]) -> (Incoming, [Field]) {
        let at = SourceLocation(file: file, line: line, column: 1)
        var rec = Incoming(line: line, number: number, file: file, name: "", type: "", zone: Zone.defaultZoneName, changeTag: nil, fields: [])
        func fail(_ rule: RuleInfo, field: String? = nil, _ m: String, fix: String? = nil) -> (Incoming, [Field]) {
            var r = rec
            r.error = .error(rule.code, ValidationRun.compose(number: number, rec.name.isEmpty ? nil : rec.name, field, m), at: at, fix: fix)
            return (r, [])
        }
        let json: StoreJSON
        do { json = try StoreJSON.parse(bytes) } catch {
            return fail(StoreRules.recordMalformed, "line is not JSON: \(error.message) at byte \(error.offset + 1)")
        }
        guard case .object = json else { return fail(StoreRules.recordMalformed, "a record is a JSON object (found \(json.kindName))") }
        guard let name = json["recordName"]?.stringValue, !name.isEmpty else {
            return fail(StoreRules.recordMalformed, "the record has no `recordName`")
        }
        rec.name = name
        guard let type = json["recordType"]?.stringValue else { return fail(StoreRules.recordMalformed, "the record has no `recordType`") }
        rec.type = type
        if let z = json["zoneID"] {
            guard let zn = z["zoneName"]?.stringValue else { return fail(StoreRules.recordMalformed, "`zoneID` needs `zoneName`") }
            rec.zone = zn
        }
        rec.changeTag = json["recordChangeTag"]?.stringValue
        guard let tIndex = schema.recordTypes.firstIndex(where: { $0.name == type }) else {
            return fail(StoreRules.recordUnknownType, "type '\(type)' is not in the \(env.rawValue) schema\(Suggest.phrase(for: type, in: schema.recordTypes.map(\.name)))",
                        fix: "add the record type with a migration first")
        }
        if rec.zone != Zone.defaultZoneName, schema.zone(named: rec.zone) == nil {
            return fail(StoreRules.recordUnknownZone, "zone '\(rec.zone)' is not in the \(env.rawValue) schema", fix: "add the zone with a migration first")
        }
        guard let fields = json["fields"].map({ $0.objectValue }) ?? [] else {
            return fail(StoreRules.recordMalformed, "`fields` is an object")
        }
        guard let encryptedValues = json["encryptedValues"].map({ $0.objectValue }) ?? [] else {
            return fail(StoreRules.recordMalformed, "`encryptedValues` is an object")
        }
        rec.fields.reserveCapacity(fields.count + encryptedValues.count)
        var additions: [Field] = []
        var additionIndex: [String: Int] = [:]
        for (source, encryptedForm) in [(fields, false), (encryptedValues, true)] {
            for (key, wrapper) in source {
                // Web Services shape {value, type}; a bare value is accepted too.
                let value: StoreJSON
                var declared: FieldType?
                var encrypted = encryptedForm
                if case .object = wrapper, let v = wrapper["value"] {
                    value = v
                    if let t = wrapper["type"]?.stringValue {
                        guard let ft = FieldValue.fieldType(fromTypeName: t) else {
                            return fail(StoreRules.recordValueType, field: key, "unknown type '\(t)'")
                        }
                        declared = ft
                        if FieldValue.isEncryptedTypeName(t) { encrypted = true }
                    }
                    if wrapper["isEncrypted"] == .bool(true) { encrypted = true }
                } else { value = wrapper }
                var field = schema.recordTypes[tIndex].field(named: key) ?? additionIndex[key].map { additions[$0] }
                if field == nil {
                    guard env == .development else {
                        return fail(StoreRules.recordUnknownField, field: key, "'\(type)' does not have it in production\(Suggest.phrase(for: key, in: schema.recordTypes[tIndex].fields.map(\.name)))",
                                    fix: "deploy the field to production first (a migration, then promote), or remove it from the record")
                    }
                    guard let newType = declared ?? inferred[key]?.type else {
                        return fail(StoreRules.recordValueType, field: key, "a new field with no `type`, so development cannot add it to the schema")
                    }
                    let f = Field(name: key, type: newType, isEncrypted: encrypted || inferred[key]?.isEncrypted == true)
                    // The checks need the type's name and database, not its other new fields.
                    let t = schema.recordTypes[tIndex]
                    if let problem = CloudKitRules.fieldViolations(f, in: t, database: schema.database(of: t), notation: .yaml).first {
                        return fail(StoreRules.recordValueType, field: key, problem.message)
                    }
                    additionIndex[key] = additions.count
                    additions.append(f)
                    field = f
                }
                guard let field else { continue }
                if field.isEncrypted != encrypted {
                    return fail(StoreRules.recordValueType, field: key,
                                field.isEncrypted ? "encrypted in the schema but written in plaintext form" : "not encrypted in the schema but written as encrypted")
                }
                if let declared {
                    let samePrimitive = declared.primitive == field.type.primitive
                        || (field.type.primitive == .number && (declared.primitive == .int64 || declared.primitive == .double))
                    if !samePrimitive || declared.isList != field.type.isList {
                        return fail(StoreRules.recordValueType, field: key, "\(field.type) in the schema, but the record says \(FieldValue.webServicesType(declared))")
                    }
                }
                switch FieldValue.storage(fromWebServices: value, type: field.type) {
                case .success(let v): rec.fields.append((key, v))
                case .failure(let m): return fail(StoreRules.recordValueType, field: key, "(\(field.type)) \(m.message)")
                }
            }
        }
        return (rec, additions)
    }

    /// Prepared statements reused across batches.
    private final class Writer {
        let insert: SQLiteStatement
        let lookup: SQLiteStatement
        let replace: SQLiteStatement
        let merge: SQLiteStatement
        let env: String
        let store: Store

        init(store: Store, env: Environment) throws {
            self.store = store
            self.env = env.rawValue
            insert = try store.db.prepare("INSERT INTO records (env, zone, record_type, record_name, change_tag, created_at, modified_at, fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) ON CONFLICT (env, zone, record_name) DO NOTHING")
            lookup = try store.db.prepare("SELECT record_type, change_tag FROM records WHERE env = ?1 AND zone = ?2 AND record_name = ?3")
            replace = try store.db.prepare("UPDATE records SET fields = ?4, change_tag = ?5, modified_at = ?6 WHERE env = ?1 AND zone = ?2 AND record_name = ?3")
            merge = try store.db.prepare("UPDATE records SET fields = json_patch(fields, ?4), change_tag = ?5, modified_at = ?6 WHERE env = ?1 AND zone = ?2 AND record_name = ?3")
        }
    }

    private static func saveBatch(_ batch: inout [Incoming], schema: Schema, writer: Writer, recorder: NotificationRecorder?, options: Options,
                                  seq: String, counter: inout Int, result: inout Result) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var inBatch = Set<String>()
        for i in batch.indices where batch[i].error == nil {
            let r = batch[i]
            if !inBatch.insert(r.zone + "\u{1}" + r.name).inserted {
                batch[i].error = .error(StoreRules.recordConflict.code, ValidationRun.compose(number: r.number, r.name, nil, "appears twice in one batch of \(options.batchSize)"),
                                        at: SourceLocation(file: r.file, line: r.line, column: 1), fix: "save each record once per request")
            }
        }
        func isAtomic(_ zone: String) -> Bool {
            zone != Zone.defaultZoneName && schema.zone(named: zone)?.capabilities.contains(.atomic) == true
        }
        // Write optimistically inside a savepoint: insert, and only when the record exists look up
        // its change tag. If a record fails in an atomic zone, roll the batch back and write it
        // again without that zone's records (CloudKit saves an atomic zone's batch all or none).
        // The subscriptions' view of each record before it is overwritten; a new record has none.
        var before: [NotificationRecorder.Key: NotificationRecorder.State] = [:]
        let lastRowID = try recorder?.lastRowID()
        try writer.store.db.execute("SAVEPOINT batch")
        var skip = Set<String>()
        var written = 0
        while true {
            written = 0
            for i in batch.indices where batch[i].error == nil && !skip.contains(batch[i].zone) {
                if try write(&batch[i], writer: writer, recorder: recorder, before: &before, options: options, seq: seq, counter: &counter, now: now) { written += 1 }
            }
            let failed = Set(batch.filter { $0.error != nil && isAtomic($0.zone) }.map(\.zone)).subtracting(skip)
            if failed.isEmpty { break }
            try writer.store.db.execute("ROLLBACK TO batch")
            skip.formUnion(failed)
        }
        try writer.store.db.execute("RELEASE batch")
        if let recorder {
            // Only the records this batch wrote: a conflict or an atomic rollback notifies nothing.
            let keys = batch.filter { $0.error == nil && !skip.contains($0.zone) }.map { NotificationRecorder.Key(zone: $0.zone, name: $0.name) }
            try recorder.record(before: before, keys: keys, createdAfter: lastRowID)
        }
        for r in batch {
            if let e = r.error { result.diagnostics.append(e); result.failed += 1 } else if skip.contains(r.zone) {
                result.diagnostics.append(.error(StoreRules.recordBatchFailed.code,
                                                 ValidationRun.compose(number: r.number, r.name, nil, "not saved: another record of its batch failed in atomic zone '\(r.zone)'"),
                                                 at: SourceLocation(file: r.file, line: r.line, column: 1), fix: "fix the failing record; the batch is saved all or nothing"))
                result.failed += 1
            }
        }
        result.saved += written
    }

    /// Saves one record with the save policy; false (and `r.error` set) on a conflict.
    private static func write(_ r: inout Incoming, writer: Writer, recorder: NotificationRecorder?, before: inout [NotificationRecorder.Key: NotificationRecorder.State],
                              options: Options, seq: String, counter: inout Int, now: Int64) throws -> Bool {
        counter += 1
        let tag = seq + "-" + String(counter, radix: 36)
        let ins = writer.insert
        ins.reset()
        try ins.bind(writer.env, at: 1); try ins.bind(r.zone, at: 2); try ins.bind(r.type, at: 3); try ins.bind(r.name, at: 4)
        try ins.bind(tag, at: 5); try ins.bind(now, at: 6); try ins.bind(r.storedFields, at: 7)
        try ins.step()
        if writer.store.db.changes == 1 { return true }
        // The record exists: the save policy decides.
        let s = writer.lookup
        s.reset()
        try s.bind(writer.env, at: 1); try s.bind(r.zone, at: 2); try s.bind(r.name, at: 3)
        guard try s.step() else { return false }
        let type = s.string(at: 0), current = s.string(at: 1)
        let at = SourceLocation(file: r.file, line: r.line, column: 1)
        if type != r.type {
            r.error = .error(StoreRules.recordConflict.code, ValidationRun.compose(number: r.number, r.name, nil, "already exists in zone '\(r.zone)' with type '\(type)', not '\(r.type)'"), at: at,
                             fix: "a record's type cannot change; use another record name")
            return false
        }
        if options.savePolicy == .ifServerRecordUnchanged, r.changeTag != current {
            let m = r.changeTag.map { "its change tag is '\(current)' in the store, '\($0)' in the file (stale)" } ?? "it already exists (change tag '\(current)') and the file gives no recordChangeTag"
            r.error = .error(StoreRules.recordConflict.code, ValidationRun.compose(number: r.number, r.name, nil, "conflict saving it: \(m)"), at: at,
                             fix: "export the current record and re-apply the change, or pass --save-policy changedKeys or allKeys to overwrite")
            return false
        }
        if let recorder {
            // Only an existing record has a state before the save (so a fresh import pays one lookup a record, after).
            let key = NotificationRecorder.Key(zone: r.zone, name: r.name)
            if before[key] == nil, let state = try recorder.states([key])[key] { before[key] = state }
        }
        let u = options.savePolicy == .changedKeys ? writer.merge : writer.replace
        u.reset()
        try u.bind(writer.env, at: 1); try u.bind(r.zone, at: 2); try u.bind(r.name, at: 3)
        try u.bind(r.storedFields, at: 4); try u.bind(tag, at: 5); try u.bind(now, at: 6)
        try u.step()
        return true
    }
}
