import Foundation
import CKSchemaCKDB
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaMigrations
import CKSchemaModel
import CKSchemaStore

/// `migrate baseline` (and `init --from-production`): adopt an app already in production.
///
/// As Flyway's `baseline` and Atlas's `migrate apply --baseline` do, the schema production
/// already has becomes the first migration, `0001_baseline.yaml`, which builds exactly that
/// schema, and the store records it as applied to production and development without
/// running anything (a baseline has no data step). From then on `migrate new` writes the
/// changes after production, and `promote --apply` starts from what production has.
public enum Baseline {
    /// The file name of the baseline migration.
    public static let fileName = "0001_baseline.yaml"

    /// What a baseline wrote.
    public struct Result: Sendable {
        /// The migration file written.
        public var path: String
        /// The sum file written.
        public var sumPath: String
        /// Its steps.
        public var steps: Int
        /// What `--force` replaced: migration files removed, and the histories forgotten.
        public var replaced: [String]
    }

    /// `production` with the development schema's `Users` when the export has none: every
    /// container has one (`CKDBImporter` adds cktool's default to the development schema, as
    /// `cktool import-schema` keeps it), so the baseline builds the same type, or the first
    /// `check` fails with CK533 (issue 35 point 9). `init --from-production` and `migrate
    /// baseline` both take it from here.
    public static func agreeingOnUsers(_ production: Schema, development: Schema?) -> Schema {
        guard production.recordType(named: "Users") == nil, let users = development?.recordType(named: "Users") else { return production }
        var out = production
        out.recordTypes.insert(users, at: out.recordTypes.firstIndex { $0.name > users.name } ?? out.recordTypes.count)
        return out
    }

    /// Writes `0001_baseline.yaml` for `production` into `folder`, updates the sum file, and
    /// records the baseline in `store` as applied to production and development.
    ///
    /// Everything is checked before anything is written: an empty schema, a folder that
    /// already has migrations or a store that already has a history (unless `force`), a
    /// schema the steps would not build exactly, are refused (CK537).
    /// - Parameter source: the production schema's path, for the migration's description.
    /// - Parameter storePath: the store; it is created only once everything has checked out.
    /// - Parameter development: the development schema, when there is one: what a `.ckdb`
    ///   production cannot say (the zones of its record types, their `requires:`, deprecations,
    ///   reference targets) is carried from it (`CKDBExpressible.carrying`), so that the
    ///   baseline keeps the app's zones and replaying it gives the development schema.
    public static func write(production exported: Schema, development: Schema? = nil, source: String, folder: MigrationFolder, storePath: String, force: Bool) throws(InputError) -> Result {
        var production = exported
        if let development, exported.notation.value == .ckdb { production = CKDBExpressible.carrying(exported, from: development) }
        let at = SourceLocation(file: source, line: 1, column: 1)
        guard !(production.recordTypes.isEmpty && production.zones.isEmpty) else {
            throw InputError(Diagnostic(rule: StoreRules.baselineRefused, "'\(source)' has no record type or zone: there is nothing in production to take as the baseline; nothing was written",
                                        at: at, fix: "pull production first (`ckschema pull`, or `xcrun cktool export-schema`), or start without a baseline: `ckschema migrate new NAME`"))
        }
        var replaced: [String] = []
        let existing = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
        var histories: [(Environment, [AppliedMigration])] = []
        if let existing {
            for env in [Environment.production, .development] {
                let h = try existing.history(env)
                if !h.isEmpty { histories.append((env, h)) }
            }
        }
        if !folder.migrations.isEmpty || !histories.isEmpty {
            let what = folder.migrations.map(\.fileName) + histories.map { "the store's \($0.0.rawValue) history (\($0.1.count) migration\($0.1.count == 1 ? "" : "s"))" }
            guard force else {
                throw InputError(Diagnostic(rule: StoreRules.baselineRefused,
                                            "a baseline must be the first migration, and there is already \(what.prefix(4).joined(separator: ", "))\(what.count > 4 ? ", ..." : ""); nothing was written",
                                            at: SourceLocation(file: folder.path, line: 1, column: 1),
                                            fix: "keep these migrations (`ckschema migrate apply --env production --to N` records the ones production has); " + Self.forceWould(files: folder.migrations.map(\.fileName), histories: histories.map(\.0))))
            }
            replaced = what
        }
        // The baseline's steps, proved to build exactly the production schema before a byte is written.
        let (steps, refused) = MigrationGenerator.steps(from: Schema(), to: production)
        if !refused.isEmpty { throw InputError(refused) }
        let text = MigrationWriter.yaml(steps: steps, description: "The production schema when ckschema was adopted (\(source)); written by `ckschema migrate baseline`.")
        let path = (folder.path as NSString).appendingPathComponent(fileName)
        let migration = try Migration.parse(Data(text.utf8), path: path)
        var built = Schema()
        try SchemaChanger.apply(migration, to: &built)
        guard built.storeNormalized == production.storeNormalized else {
            let delta = SchemaDiff.compute(from: built.storeNormalized, to: production.storeNormalized).changes.prefix(3).map(\.description)
            throw InputError(Diagnostic(rule: StoreRules.baselineRefused, "the baseline's steps would not build exactly '\(source)' (\(delta.joined(separator: "; "))); nothing was written", at: at,
                                        fix: "report this with the schema file: every schema CloudKit exports must have a baseline"))
        }

        try? FileManager.default.createDirectory(atPath: (storePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let store = try Store(path: storePath)
        let lock = try StoreLock.acquire(store, timeout: 10, command: "migrate baseline")
        defer { lock.release() }
        // The files first (each written whole), then the store in one transaction.
        if force {
            for m in folder.migrations where m.path != path {
                do { try FileManager.default.removeItem(atPath: m.path) } catch {
                    throw InputError(Diagnostic(rule: InputRules.unwritable, "cannot remove '\(m.path)' to replace it with the baseline", at: SourceLocation(file: m.path, line: 1, column: 1)))
                }
            }
        }
        try? FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try InputFile.write(text, to: path)
        let written = MigrationFolder(path: folder.path, migrations: [migration])
        try written.writeSum()
        let row = AppliedMigration(version: 1, name: migration.name, checksum: migration.checksum, appliedAt: Store.now(),
                                   durationMilliseconds: 0, ckschemaVersion: CKSchemaVersion.current)
        try store.guarded("record the baseline") {
            try store.db.transaction {
                for env in [Environment.production, .development] {
                    try store.clearHistory(env: env)
                    try store.writeSchema(built, env: env)
                    try store.recordHistory(row, env: env)
                }
            }
        }
        return Result(path: path, sumPath: written.sumPath, steps: steps.count, replaced: replaced)
    }

    /// What `migrate baseline --force` would throw away, named before anyone passes it: the
    /// migration files it deletes (their steps, and their data steps, are lost) and the
    /// histories it forgets (which migrations each environment has).
    static func forceWould(files: [String], histories: [Environment]) -> String {
        var lost: [String] = []
        if !files.isEmpty {
            lost.append("delete the \(files.count) migration file\(files.count == 1 ? "" : "s") (\(files.prefix(4).joined(separator: ", "))\(files.count > 4 ? ", ..." : ""))")
        }
        if !histories.isEmpty {
            lost.append("forget the store's \(histories.map(\.rawValue).joined(separator: " and ")) histor\(histories.count == 1 ? "y" : "ies")")
        }
        return "`--force` would \(lost.joined(separator: " and ")), and replace them with one baseline of production"
    }
}

/// What the store's production holds against the production schema ckschema.yaml names:
/// the findings `migrate status` and `check` report (CK535, CK536), each with the command
/// that brings the store up to date.
public enum ProductionRecord {
    /// `schema` as it compares with `production`: what a `.ckdb` can hold
    /// (`CKDBExpressible.form`) when `production` was read from one, so that what CloudKit's
    /// schema language cannot say (zones, `requires:`, queries, subscriptions, the container,
    /// deprecation) is never a difference; else as the store holds it (`storeNormalized`).
    /// The one comparison of the store's production (or a replay) with a production file:
    /// CK535, CK536, their fix, and `promote --apply`'s stale check (CK534).
    public static func comparable(_ schema: Schema, with production: Schema) -> Schema {
        production.notation.value == .ckdb ? CKDBExpressible.form(schema).storeNormalized : schema.storeNormalized
    }

    /// The command that records `production` in the store's production: applying the first N
    /// migrations when they build exactly it (as far as its source can say), else a baseline.
    /// Never `--force` without saying what it would throw away.
    public static func fix(recording production: Schema, folder: MigrationFolder?) throws(InputError) -> String {
        let wanted = comparable(production, with: production)
        let replays = try folder?.replays() ?? []
        if let folder, let i = replays.indices.last(where: { comparable(replays[$0], with: production) == wanted }) {
            let n = folder.migrations[i].version
            return "run `ckschema migrate apply --env production --to \(n)`: migrations 1-\(n) build exactly this production schema"
        }
        guard let folder, !folder.migrations.isEmpty else {
            return "run `ckschema migrate baseline` to record it as the first migration, applied to production and development"
        }
        let names = folder.migrations.map(\.fileName)
        let listed = names.prefix(4).joined(separator: ", ") + (names.count > 4 ? ", ..." : "")
        return "no prefix of the migrations builds it: write the migrations that build it; `ckschema migrate baseline --force` would instead delete the \(names.count) migration file\(names.count == 1 ? "" : "s") (\(listed)) and the store's histories, and replace them with one baseline of production"
    }

    /// Findings for `store`'s production against `production` (read from `path`).
    public static func findings(store: Store, production: Schema, path: String, folder: MigrationFolder) throws(InputError) -> [Diagnostic] {
        let stored = try store.schema(.production)
        let wanted = comparable(production, with: production)
        guard comparable(stored, with: production) != wanted, !(production.recordTypes.isEmpty && production.zones.isEmpty) else { return [] }
        let at = SourceLocation(file: path, line: 1, column: 1)
        let applied = try store.history(.production).last?.version ?? 0
        var fix = try Self.fix(recording: production, folder: folder)
        // The store is ahead of the file: it was deployed (`promote --apply`) and the file not yet refreshed.
        let replays = try folder.replays()
        if applied > 0, let i = replays.indices.last(where: { comparable(replays[$0], with: production) == wanted }), folder.migrations[i].version < applied {
            fix = "the store's production has migrations up to \(applied) and '\(path)' only up to \(folder.migrations[i].version): once the CloudKit Console has deployed them, refresh '\(path)' with `ckschema pull`"
        }
        if stored.recordTypes.isEmpty && stored.zones.isEmpty {
            return [Diagnostic(rule: StoreRules.productionNotRecorded,
                               "the store's production environment is empty, but '\(path)' is not: `promote --apply` and `migrate apply --env production` would start from nothing",
                               at: at, fix: fix)]
        }
        let delta = SchemaDiff.compute(from: comparable(stored, with: production), to: wanted).changes
        let list = delta.prefix(3).map(\.description).joined(separator: "; ") + (delta.count > 3 ? "; ..." : "")
        return [Diagnostic(rule: StoreRules.productionDiffers,
                           "the store's production schema is not '\(path)' (after a deploy from the CloudKit Console or a `ckschema pull`?): store -> \(path): \(list)",
                           at: at, fix: fix)]
    }
}
