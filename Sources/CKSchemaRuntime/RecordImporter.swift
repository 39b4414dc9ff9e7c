import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaRecords
import CKSchemaStore

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

        /// Whether a record saved outside the zone its type's schema names is refused (CK904).
        /// That is ckschema's rule (the YAML `zone:`), not CloudKit's: CloudKit saves any type
        /// in any zone, so an in-memory CloudKit (CKSchemaTesting) switches it off. It is an
        /// input of the validate command's checker (`RecordChecker`), so when off the check is
        /// not run at all. The two switches below are the importer's own rules, run per batch
        /// against the store (which the checker cannot see), and are skipped when off.
        public var checksRecordZones = true

        /// Whether a record whose `deleteSelf` reference names a record that neither exists in
        /// its zone nor is saved in the same batch is refused (CK558; CloudKit's
        /// referenceViolation). CloudKit's rule (CKRecord.Reference: "If a record references a
        /// record that does not exist on the server and is not in the current save operation it
        /// will result in an error if using an action other than none"), per request. Off for
        /// `records import`, whose files may hold a record before the target it refers to in a
        /// later batch or file; an in-memory CloudKit (CKSchemaTesting) switches it on.
        public var checksReferenceTargets = false

        /// `CKModifyRecordsOperation.isAtomic` (default true): whether a batch's records in a
        /// zone with the `atomic` capability are saved all or none. False saves each record
        /// that passes, as CloudKit does for a non-atomic operation ("If a record zone doesn't
        /// support the atomic capability, setting this property has no effect", and with it
        /// false an atomic zone's records are saved one by one;
        /// https://developer.apple.com/documentation/cloudkit/ckmodifyrecordsoperation/isatomic).
        public var isAtomic = true

        /// Whether the result lists each record saved (`Result.savedRecords`), so that an
        /// in-memory CloudKit answers a request with the records as stored without reading them
        /// back. Off for `records import`, whose runs may save millions of records.
        package var reportsSaved = false

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
        /// Each record saved, in line order, when `Options.reportsSaved` asks for them.
        package var savedRecords: [SavedRecord] = []
    }

    /// One record as the import stored it: its system fields and, unless the save merged its
    /// keys into a stored record's (save policy changedKeys: `json_patch` in SQLite), the very
    /// fields written to the store's `fields` column.
    package struct SavedRecord: Sendable {
        package var line: Int
        package var row: RecordRows.Row
        /// nil when the stored fields are a merge the caller must read.
        package var fields: [(String, JSONValue)]?
        /// The stored record this save replaced (nil for a new record): its row and fields
        /// JSON as they were before the save.
        package var replaced: (row: RecordRows.Row, fields: String)?
    }

    /// One record of a batch, read from its line.
    struct Incoming {
        var line: Int
        /// The record's number in its file, as `validate` counts it.
        var number: Int
        var file: String
        var name: String
        var type: String
        var zone: String
        var changeTag: String?
        var fields: [(String, JSONValue)]
        var error: Diagnostic?
        var storedFields: String = "{}"
        /// The records its `deleteSelf` references name, in its zone (CK558's check).
        var deleteSelfTargets: [String] = []
        /// What the last write pass gave it: its row, whether its keys were merged into the
        /// stored record's, and the stored record it replaced (`SavedRecord.replaced`).
        var written: (row: RecordRows.Row, merged: Bool, replaced: (row: RecordRows.Row, fields: String)?)?
    }

    /// Imports the files in order. Throws `InputError` for an unreadable file or store; records
    /// that fail are reported in the result (exit 1), the others are saved.
    public static func importFiles(_ paths: [String], into store: Store, options: Options) throws(InputError) -> Result {
        try run(into: store, options: options) { run in
            for path in paths { try run.importFile(path) }
        }
    }

    /// Imports records already in memory, each one record's line in the Web Services shape
    /// (what a line of an NDJSON file holds); diagnostics name line N of `source` for
    /// `lines[N - 1]`. The same import as `importFiles` (one transaction, the same checks,
    /// batches, save policies, atomic zones and notifications), without a file to write and
    /// read back: CKSchemaTesting's `FakeCloudKit` saves each request through it.
    public static func importRecords(lines: [String], source: String, into store: Store, options: Options) throws(InputError) -> Result {
        try run(into: store, options: options) { run in try run.importLines(lines, file: source) }
    }

    /// One import: its transaction, the run's state, the schema development grew.
    private static func run(into store: Store, options: Options, _ body: (ImportRun) throws -> Void) throws(InputError) -> Result {
        let schemaBefore = try store.schema(options.environment)
        var result = Result()
        var addedFields: [String: SourceLocation] = [:]
        try store.guarded("import records") {
            try withImportCache(store) {
                try store.db.transaction {
                    let run = try ImportRun(store: store, options: options, schema: schemaBefore)
                    try body(run)
                    if run.schema != schemaBefore { try store.writeSchema(run.schema, env: options.environment) }
                    result = run.result
                    addedFields = run.addedFields
                }
            }
        }
        result.diagnostics += newFieldNotes(addedFields)
        return result
    }

    /// Runs `body` with a 64 MB page cache, which keeps a large import from spilling dirty
    /// pages to disk mid-transaction; the store's own cache size is restored after.
    private static func withImportCache(_ store: Store, _ body: () throws -> Void) throws {
        let cache = try store.db.scalar("PRAGMA cache_size")?.integer ?? -2000
        try store.db.execute("PRAGMA cache_size = -65536")
        defer { try? store.db.execute("PRAGMA cache_size = \(cache)") }
        try body()
    }

    /// One note a field development added to its schema, at the first record that added it.
    private static func newFieldNotes(_ added: [String: SourceLocation]) -> [Diagnostic] {
        added.sorted(by: { $0.key < $1.key }).map { key, at in
            Diagnostic(rule: StoreRules.recordNewField, "development added field \(key) to its schema, as CloudKit does for a record with a new key", at: at, fix: "add it to Schemas/ and write a migration (`ckschema migrate new`), or production will refuse it")
        }
    }

    /// Where a batch is written: the store (whose statements of `records` are cached on its
    /// connection) and the environment.
    struct Writer {
        let store: Store
        let env: Environment
    }

    static func saveBatch(_ batch: inout [Incoming], schema: Schema, writer: Writer, recorder: NotificationRecorder?, options: Options,
                                  seq: String, counter: inout Int, result: inout Result) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var inBatch = Set<NotificationRecorder.Key>(minimumCapacity: batch.count)
        for i in batch.indices where batch[i].error == nil {
            if !inBatch.insert(NotificationRecorder.Key(zone: batch[i].zone, name: batch[i].name)).inserted {
                let r = batch[i]
                batch[i].error = Diagnostic(rule: StoreRules.recordConflict, ValidationRun.compose(number: r.number, r.name, nil, "appears twice in one batch of \(options.batchSize)"),
                                        at: SourceLocation(file: r.file, line: r.line, column: 1), fix: "save each record once per request")
            }
        }
        func isAtomic(_ zone: String) -> Bool {
            options.isAtomic && zone != Zone.defaultZoneName && schema.zone(named: zone)?.capabilities.contains(.atomic) == true
        }
        // Write optimistically inside a savepoint: insert, and only when the record exists look up
        // its change tag. If a record fails in an atomic zone, roll the batch back and write it
        // again without that zone's records (CloudKit saves an atomic zone's batch all or none).
        // The subscriptions' view of each record before it is overwritten; a new record has none.
        var before: [NotificationRecorder.Key: NotificationRecorder.State] = [:]
        let lastRowID = try recorder?.lastRowID()
        // A type's first record brings its SQLite indexes (`StoreIndexer.sync` creates them only
        // for types that hold records); before the savepoint, so a batch written again keeps them.
        var types = Set<String>()
        for i in batch.indices where batch[i].error == nil && types.insert(batch[i].type).inserted {
            if let t = schema.recordType(named: batch[i].type) { try writer.store.materializeIndexes(of: t, env: writer.env) }
        }
        try writer.store.db.execute("SAVEPOINT batch")
        var skip = Set<String>()
        var written = 0
        while true {
            written = try writePass(&batch, skip: skip, writer: writer, recorder: recorder, before: &before, options: options, seq: seq,
                                    counter: &counter, now: now)
            // A deleteSelf reference to a record that is neither stored nor in this batch fails
            // its record: the batch is written again without it (which may leave another's
            // target missing; each pass refuses at least one record, so it ends).
            if options.checksReferenceTargets, try refuseMissingTargets(&batch, skip: skip, writer: writer, batchSize: options.batchSize) {
                try writer.store.db.execute("ROLLBACK TO batch")
                continue
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
        for i in batch.indices {
            if let e = batch[i].error { result.diagnostics.append(e); result.failed += 1 } else if !skip.isEmpty, skip.contains(batch[i].zone) {
                let r = batch[i]
                result.diagnostics.append(Diagnostic(rule: StoreRules.recordBatchFailed,
                                                 ValidationRun.compose(number: r.number, r.name, nil, "not saved: another record of its batch failed in atomic zone '\(r.zone)'"),
                                                 at: SourceLocation(file: r.file, line: r.line, column: 1), fix: "fix the failing record; the batch is saved all or nothing"))
                result.failed += 1
            }
        }
        result.saved += written
        if options.reportsSaved {
            for i in batch.indices where batch[i].error == nil && (skip.isEmpty || !skip.contains(batch[i].zone)) {
                guard let w = batch[i].written else { continue }
                result.savedRecords.append(SavedRecord(line: batch[i].line, row: w.row, fields: w.merged ? nil : batch[i].fields, replaced: w.replaced))
            }
        }
    }

    /// CK558 on each written record whose deleteSelf reference names a record its zone does
    /// not hold after the batch's writes; true when one was refused.
    private static func refuseMissingTargets(_ batch: inout [Incoming], skip: Set<String>, writer: Writer, batchSize: Int) throws -> Bool {
        var refused = false
        let checked = batch.indices.filter { batch[$0].error == nil && !skip.contains(batch[$0].zone) && !batch[$0].deleteSelfTargets.isEmpty }
        guard !checked.isEmpty else { return false }
        // Every target of the batch in one lookup per 100 names (nothing below writes).
        let present = try writer.store.existingRecordKeys(env: writer.env, checked.flatMap { i in batch[i].deleteSelfTargets.map { (batch[i].zone, $0) } })
        for i in checked {
            let r = batch[i]
            for target in r.deleteSelfTargets {
                guard !present.contains(r.zone + "\u{1}" + target) else { continue }
                batch[i].error = Diagnostic(rule: StoreRules.recordReferenceTargetMissing,
                                            ValidationRun.compose(number: r.number, r.name, nil, "holds a deleteSelf reference to \(JSONValue.string(target).text), which is neither in zone '\(ControlCharacters.escaped(r.zone))' nor saved with it"),
                                            at: SourceLocation(file: r.file, line: r.line, column: 1),
                                            fix: "save the target first, or in the same request (batch of \(batchSize)), or use the reference action none")
                refused = true
                break
            }
        }
        return refused
    }

    /// Writes every record of the batch that has not failed and is not in a skipped zone; the
    /// number written. Each record gets its change tag in batch order (the counter), as when
    /// each was written in turn; the new ones are inserted together (`Store.insertNewRecords`:
    /// the same ids, in one statement per 100), then each existing one is saved with the save
    /// policy. A new record's insert and an existing one's save touch different rows, so the
    /// order between them changes nothing a later read sees.
    private static func writePass(_ batch: inout [Incoming], skip: Set<String>, writer: Writer, recorder: NotificationRecorder?,
                                  before: inout [NotificationRecorder.Key: NotificationRecorder.State], options: Options, seq: String,
                                  counter: inout Int, now: Int64) throws -> Int {
        var pending: [(index: Int, tag: String)] = []
        for i in batch.indices where batch[i].error == nil && !skip.contains(batch[i].zone) {
            counter += 1
            pending.append((i, seq + "-" + String(counter, radix: 36)))
        }
        guard !pending.isEmpty else { return 0 }
        let existing = try writer.store.existingRecordKeys(env: writer.env, pending.map { (batch[$0.index].zone, batch[$0.index].name) })
        var fresh: [(zone: String, type: String, name: String, changeTag: String, fields: String)] = []
        var stored: [(index: Int, tag: String)] = []
        var freshIndex: [Int] = []
        fresh.reserveCapacity(pending.count)
        for p in pending {
            if !existing.isEmpty, existing.contains(batch[p.index].zone + "\u{1}" + batch[p.index].name) {
                stored.append(p)
            } else {
                fresh.append((batch[p.index].zone, batch[p.index].type, batch[p.index].name, p.tag, batch[p.index].storedFields))
                freshIndex.append(p.index)
            }
        }
        let ids = try writer.store.insertNewRecords(env: writer.env, fresh, now: now)
        for (k, i) in freshIndex.enumerated() where k < ids.count {
            batch[i].written = (RecordRows.Row(id: ids[k], recordType: fresh[k].type, recordName: fresh[k].name, zone: fresh[k].zone,
                                               changeTag: fresh[k].changeTag, createdAt: now, modifiedAt: now), false, nil)
        }
        var written = fresh.count
        for p in stored {
            if try write(&batch[p.index], tag: p.tag, writer: writer, recorder: recorder, before: &before, options: options, now: now) { written += 1 }
        }
        return written
    }

    /// Saves one record that exists with the save policy; false (and `r.error` set) on a conflict.
    private static func write(_ r: inout Incoming, tag: String, writer: Writer, recorder: NotificationRecorder?,
                              before: inout [NotificationRecorder.Key: NotificationRecorder.State], options: Options, now: Int64) throws -> Bool {
        let store = writer.store
        // The record exists: the save policy decides.
        // The row, and its fields too when the save reports the version it replaces: one read.
        let found: (row: RecordRows.Row, fields: String?)? = try options.reportsSaved
            ? store.recordRowAndFields(env: writer.env, zone: r.zone, name: r.name).map { ($0.row, $0.fields) }
            : store.recordRow(env: writer.env, zone: r.zone, name: r.name).map { ($0, nil) }
        guard let (old, oldFields) = found else { return false }
        let (type, current) = (old.recordType, old.changeTag)
        let at = SourceLocation(file: r.file, line: r.line, column: 1)
        if type != r.type {
            r.error = Diagnostic(rule: StoreRules.recordConflict, ValidationRun.compose(number: r.number, r.name, nil, "already exists in zone '\(r.zone)' with type '\(type)', not '\(r.type)'"), at: at,
                             fix: "a record's type cannot change; use another record name")
            return false
        }
        if options.savePolicy == .ifServerRecordUnchanged, r.changeTag != current {
            let m = r.changeTag.map { "its change tag is '\(current)' in the store, '\($0)' in the file (stale)" } ?? "it already exists (change tag '\(current)') and the file gives no recordChangeTag"
            r.error = Diagnostic(rule: StoreRules.recordConflict, ValidationRun.compose(number: r.number, r.name, nil, "conflict saving it: \(m)"), at: at,
                             fix: "export the current record and re-apply the change, or pass --save-policy changedKeys or allKeys to overwrite")
            return false
        }
        if let recorder {
            // Only an existing record has a state before the save (so a fresh import pays one lookup a record, after).
            let key = NotificationRecorder.Key(zone: r.zone, name: r.name)
            if before[key] == nil, let state = try recorder.states([key])[key] { before[key] = state }
        }
        let merging = options.savePolicy == .changedKeys
        let replaced = oldFields.map { (old, $0) }
        try store.saveRecordFields(env: writer.env, zone: r.zone, name: r.name, fields: r.storedFields, merging: merging, changeTag: tag, now: now)
        var row = old
        row.changeTag = tag
        row.modifiedAt = now
        r.written = (row, merging, replaced)
        return true
    }
}
