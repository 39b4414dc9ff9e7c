import Foundation
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel
import CKSchemaRuntime
import CKSchemaStore

/// Applies pending migrations to a store: in order, each in one `BEGIN IMMEDIATE` transaction
/// that also records it in the history, under the store's lock. A failure or a kill leaves the
/// store at the last fully applied migration.
public enum Migrator {
    /// What `migrate apply` is asked to do.
    public struct Options: Sendable {
        public var environment: Environment
        /// Apply up to and including this version (nil: all).
        public var targetVersion: Int?
        /// Compute and check the plan; change nothing.
        public var dryRun: Bool
        /// Seconds to wait for another run's lock.
        public var lockTimeout: Double
        /// Called with a line of progress (`applying 0002_add_title`).
        public var progress: (@Sendable (String) -> Void)?
        /// Called after each step inside the migration's transaction (tests pause here to kill the process).
        public var afterStep: (@Sendable (Migration, Int) -> Void)?
        /// The repository's `promote:` settings: production migrations are classed by the
        /// same rules, with the same settings, as `promote`.
        public var promote: RuleSettings = RuleSettings()
        /// SQLite's page cache while applying, in KiB. Large, so that a data step does not spill
        /// pages into the file mid-transaction; the crash tests make it tiny so that it does,
        /// leaving a hot journal when the process is killed.
        public var cacheKilobytes = 65536

        public init(environment: Environment = .development, targetVersion: Int? = nil, dryRun: Bool = false, lockTimeout: Double = 10,
                    progress: (@Sendable (String) -> Void)? = nil, afterStep: (@Sendable (Migration, Int) -> Void)? = nil) {
            self.environment = environment
            self.targetVersion = targetVersion
            self.dryRun = dryRun
            self.lockTimeout = lockTimeout
            self.progress = progress
            self.afterStep = afterStep
        }
    }

    /// What a run did (or, for a dry run, would do).
    public struct Result: Sendable {
        /// The migrations applied (dry run: that would be applied), in order.
        public var migrations: [Migration]
        /// History rows written (empty for a dry run).
        public var applied: [AppliedMigration]
        /// Warnings and notes (an index removed, a stale lock recovered).
        public var diagnostics: [Diagnostic]
        /// Records each data step touches (dry run: would touch), by "version:step".
        public var recordsChanged: Int
    }

    /// Applies the folder's pending migrations to `store`. Throws `InputError` (exit 2) when the
    /// sum file does not match, an applied migration has changed or is missing, a step cannot
    /// apply, production would refuse a step, or the lock is held past the timeout.
    public static func apply(folder: MigrationFolder, store: Store, options: Options) throws(InputError) -> Result {
        let env = options.environment
        let pending = try pendingMigrations(folder, store: store, options: options)
        var diagnostics = try checkInMemory(pending, store: store, options: options)
        if options.dryRun {
            var touched = 0
            var s = try store.schema(env)
            for m in pending { touched += try countTouched(m, schema: &s, store: store, env: env) }
            return Result(migrations: pending, applied: [], diagnostics: diagnostics, recordsChanged: touched)
        }
        if pending.isEmpty { return Result(migrations: [], applied: [], diagnostics: diagnostics, recordsChanged: 0) }

        let lock = try StoreLock.acquire(store, timeout: options.lockTimeout, command: "migrate apply --env \(env.rawValue)")
        defer { lock.release() }
        if let r = lock.recovered {
            diagnostics.append(Diagnostic(code: StoreRules.locked.code, severity: .note, location: nil,
                                          message: "took over a stale lock left by \(r), which is no longer running"))
        }
        var applied: [AppliedMigration] = []
        var changed = 0
        // A 64 MB page cache keeps a data step over many records from spilling pages mid-transaction.
        let cache = (try? store.db.scalar("PRAGMA cache_size")?.integer) ?? -2000
        try? store.db.execute("PRAGMA cache_size = -\(max(1, options.cacheKilobytes))")
        defer { try? store.db.execute("PRAGMA cache_size = \(cache)") }
        for m in pending {
            options.progress?("applying \(m.fileName) to \(env.rawValue)")
            if let row = try applyOne(m, store: store, options: options, changed: &changed) { applied.append(row) }
        }
        return Result(migrations: pending, applied: applied, diagnostics: diagnostics, recordsChanged: changed)
    }

    /// The migrations after the store's history up to `--to`, once the sum file, the history
    /// and the target check out.
    private static func pendingMigrations(_ folder: MigrationFolder, store: Store, options: Options) throws(InputError) -> [Migration] {
        try folder.verifySum()
        let env = options.environment
        let history = try store.history(env)
        let status = try MigrationStatus.compare(folder: folder, history: history, environment: env)
        let blocking = status.diagnostics.filter { $0.severity == .error }
        if !blocking.isEmpty { throw InputError(blocking) }
        let last = history.last?.version ?? 0
        if let to = options.targetVersion {
            guard folder.migrations.contains(where: { $0.version == to }) || to == 0 else {
                throw InputError(Diagnostic(rule: StoreRules.badTarget, "--to \(to): there is no migration \(to) (the last is \(folder.migrations.last?.version ?? 0))", at: nil))
            }
            if to < last {
                throw InputError(Diagnostic(rule: StoreRules.badTarget, "--to \(to): the \(env.rawValue) store is already at \(last); migrations never go backwards", at: nil,
                                        fix: "write a new migration that undoes the change"))
            }
        }
        return folder.migrations.filter { $0.version > last && $0.version <= (options.targetVersion ?? Int.max) }
    }

    /// Checks the whole plan in memory first, so nothing touches the store unless every step
    /// applies: production refuses what promote refuses. Returns the review findings.
    private static func checkInMemory(_ pending: [Migration], store: Store, options: Options) throws(InputError) -> [Diagnostic] {
        let env = options.environment
        var schema = try store.schema(env)
        var diagnostics: [Diagnostic] = []
        for m in pending {
            let before = schema
            try SchemaChanger.apply(m, to: &schema, adoptingFields: env == .development)
            if env == .production {
                let gate = ProductionGate.check(from: before, to: schema, migration: m, settings: options.promote)
                if !gate.forbidden.isEmpty { throw InputError(gate.forbidden) }
                diagnostics += gate.review
            } else {
                diagnostics += ProductionGate.reviews(m)
            }
        }
        return diagnostics
    }

    /// One migration in one transaction: its steps, the new schema and its history row; nil
    /// when another run applied it while this one waited for the lock.
    private static func applyOne(_ m: Migration, store: Store, options: Options, changed: inout Int) throws(InputError) -> AppliedMigration? {
        let env = options.environment
        let started = Date()
        var touched = 0
        let row: AppliedMigration? = try store.guarded("apply \(m.fileName)") {
            try store.db.transaction {
                // Another run may have applied it while this one waited: never apply twice.
                if try store.db.scalar("SELECT 1 FROM migrations WHERE env = ? AND version = ?", [.text(env.rawValue), .integer(Int64(m.version))]) != nil {
                    return nil
                }
                var schema = try StoreSchemaCodec.decode(
                    try store.db.scalar("SELECT schema_json FROM environments WHERE name = ?", [.text(env.rawValue)])?.text ?? "")
                let tag = try nextSequence(store)
                for (i, step) in m.steps.enumerated() {
                    try SchemaChanger.apply(step, to: &schema, file: m.path, adoptingFields: env == .development)
                    touched += try runDataStep(step, schema: schema, store: store, env: env, tag: tag)
                    options.afterStep?(m, i)
                }
                try store.writeSchema(schema, env: env)
                let row = AppliedMigration(version: m.version, name: m.name, checksum: m.checksum, appliedAt: Store.now(),
                                           durationMilliseconds: Int(Date().timeIntervalSince(started) * 1000), ckschemaVersion: CKSchemaVersion.current)
                try store.recordHistory(row, env: env)
                return row
            }
        }
        changed += touched
        return row
    }

    private static func nextSequence(_ store: Store) throws -> String {
        try store.nextChangeTagSequence()
    }

    /// What a data step changes in the records; nil for a schema step.
    static func dataStepUpdate(_ step: MigrationStep, schema: Schema) throws -> RecordsFieldUpdate? {
        try step.action.dataUpdate(in: schema, at: step.location)
    }

    private static func runDataStep(_ step: MigrationStep, schema: Schema, store: Store, env: Environment, tag: String) throws -> Int {
        guard let update = try dataStepUpdate(step, schema: schema) else { return 0 }
        // Data steps save records too: the environment's subscriptions see them (docs/runtime.md).
        let recorder = try NotificationRecorder(store: store, env: env, schema: schema)
        var keys: [NotificationRecorder.Key] = []
        if recorder != nil, let tn = step.recordTypeName { keys = try recordKeys(store, env, tn) }
        let before = try recorder?.states(keys) ?? [:]
        let changed = try store.updateRecords(update, env: env, changeTag: tag, now: Int64(Date().timeIntervalSince1970 * 1000))
        try recorder?.record(before: before, keys: keys)
        return changed
    }

    private static func recordKeys(_ store: Store, _ env: Environment, _ type: String) throws -> [NotificationRecorder.Key] {
        try store.recordKeys(env: env, recordType: type).map { NotificationRecorder.Key(zone: $0.zone, name: $0.name) }
    }

    /// How many records a migration's data steps would change (for dry runs).
    private static func countTouched(_ m: Migration, schema: inout Schema, store: Store, env: Environment) throws(InputError) -> Int {
        var n = 0
        for step in m.steps {
            try SchemaChanger.apply(step, to: &schema, file: m.path, adoptingFields: env == .development)
            let s = schema
            n += try store.guarded("count records") {
                guard let update = try dataStepUpdate(step, schema: s) else { return 0 }
                return try store.countRecords(update, env: env)
            }
        }
        return n
    }
}

/// The production rules as `migrate new`, `migrate apply --env production` and `promote
/// --apply` ask them: `PromotionPlan.production` (the one function `promote` asks too)
/// between the store's forms of the schema before and after, with the same `promote:`
/// settings, so the codes, words and fixes are promote's (CK301-CK317).
/// Source: Apple, "Deploying an iCloud Container's Schema"; "Encrypting User Data".
package enum ProductionGate {
    /// The forbidden steps (errors) and the review steps (warnings) of one migration, each at
    /// the migration step that makes the change.
    static func check(from old: Schema, to new: Schema, migration m: Migration, settings: RuleSettings) -> (forbidden: [Diagnostic], review: [Diagnostic]) {
        let plan = PromotionPlan.production(from: old.storeNormalized, to: new.storeNormalized, settings: settings)
        var forbidden: [Diagnostic] = [], review: [Diagnostic] = []
        for step in plan.steps where step.changeClass != .safe {
            let d = diagnostic(step, in: m)
            if step.changeClass == .forbidden { forbidden.append(d) } else { review.append(d) }
        }
        return (forbidden, review)
    }

    /// A plan step as a migration reports it: prefixed by the file, at the step that makes it.
    static func diagnostic(_ step: PromotionStep, in m: Migration) -> Diagnostic {
        var d = step.diagnostic
        d.message = "\(m.fileName): \(d.message)"
        d.location = location(of: step.change, in: m)
        // A migration retires with a `deprecate:` step, not with schema-file syntax.
        if step.change.kind == .removeField || step.change.kind == .removeRecordType, let t = step.change.recordType {
            d.fix = "use `deprecate: { recordType: \(t)\(step.change.field.map { ", field: \($0)" } ?? "") }` instead"
        }
        return d
    }

    /// Where in the migration file the step that makes `change` is written.
    static func location(of change: SchemaChange, in m: Migration) -> SourceLocation {
        let fallback = SourceLocation(file: m.path, line: 1, column: 1)
        let step = m.steps.first { $0.recordTypeName == change.recordType && (change.field == nil || $0.fieldName == nil || $0.fieldName == change.field) }
            ?? m.steps.first { $0.recordTypeName == change.recordType }
        return step?.location ?? fallback
    }

    /// The forbidden steps of the promotion from `old` to `new`, as the plan words them.
    package static func forbidden(from old: Schema, to new: Schema, settings: RuleSettings) -> [Diagnostic] {
        PromotionPlan.production(from: old.storeNormalized, to: new.storeNormalized, settings: settings).diagnostics(minimum: .forbidden)
    }

    /// In development, allowed steps a person should see: removing an index breaks queries that need it.
    static func reviews(_ m: Migration) -> [Diagnostic] {
        m.steps.compactMap { $0.action.developmentReview(at: $0.location) }
    }
}
