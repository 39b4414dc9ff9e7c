import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import Foundation

/// `migrate status`: each migration's state against a store's history, and drift.
public struct MigrationStatus: Sendable {
    /// A migration's state in one environment.
    public enum State: String, Sendable, Hashable, Codable {
        /// In the folder and in the history with the same checksum.
        case applied
        /// In the folder, not yet in the history.
        case pending
        /// In the history with another checksum: the file was edited after it was applied (an error).
        case changed
        /// In the history, not in the folder (an error).
        case missing
    }

    public struct Entry: Sendable, Hashable {
        public var version: Int
        public var name: String
        public var state: State
        /// When it was applied (applied, changed, missing).
        public var appliedAt: String?
    }

    public var environment: Environment
    public var entries: [Entry]
    /// Changed and missing migrations, pending notes, and drift.
    public var diagnostics: [Diagnostic]

    /// Compares the folder with a history (no drift check).
    public static func compare(folder: MigrationFolder, history: [AppliedMigration], environment: Environment) throws(InputError) -> MigrationStatus {
        var entries: [Entry] = []
        var diagnostics: [Diagnostic] = []
        var pending: [Migration] = []
        let applied = Dictionary(history.map { ($0.version, $0) }, uniquingKeysWith: { a, _ in a })
        let files = Dictionary(folder.migrations.map { ($0.version, $0) }, uniquingKeysWith: { a, _ in a })
        for v in Set(applied.keys).union(files.keys).sorted() {
            switch (files[v], applied[v]) {
            case (let m?, let h?):
                if m.checksum == h.checksum && m.name == h.name {
                    entries.append(Entry(version: v, name: m.name, state: .applied, appliedAt: h.appliedAt))
                } else {
                    entries.append(Entry(version: v, name: m.name, state: .changed, appliedAt: h.appliedAt))
                    let what = m.name == h.name ? "its file has changed since it was applied" : "it was applied as '\(h.name)' and the file is now '\(m.fileName)'"
                    diagnostics.append(Diagnostic(rule: StoreRules.changed, "migration \(m.fileName) is applied to \(environment.rawValue), but \(what)",
                                              at: SourceLocation(file: m.path, line: 1, column: 1),
                                              fix: "undo the edit (git checkout the file) and put the change in a new migration"))
                }
            case (let m?, nil):
                entries.append(Entry(version: v, name: m.name, state: .pending, appliedAt: nil))
                pending.append(m)
            case (nil, let h?):
                entries.append(Entry(version: v, name: h.name, state: .missing, appliedAt: h.appliedAt))
                diagnostics.append(Diagnostic(rule: StoreRules.missing, "migration \(String(format: "%04d", v))_\(h.name) is applied to \(environment.rawValue) but its file is not in '\(folder.path)'",
                                          at: nil, fix: "restore the file from version control; applied migrations are never removed"))
            case (nil, nil): break
            }
        }
        // One note for every pending migration, at the first: how many, and what to run
        // (issue 32 point 5: seven pending migrations were seven identical lines).
        if let first = pending.first {
            let what = pending.count == 1 ? "migration \(first.fileName) is" : "\(pending.count) migrations (\(first.fileName) to \(pending[pending.count - 1].fileName)) are"
            diagnostics.append(Diagnostic(rule: StoreRules.pending, "\(what) not yet applied to \(environment.rawValue)",
                                          at: SourceLocation(file: first.path, line: 1, column: 1), fix: "run `ckschema migrate apply --env \(environment.rawValue)`"))
        }
        return MigrationStatus(environment: environment, entries: entries, diagnostics: diagnostics)
    }

    /// The full status: states, the sum file, and drift — whether replaying the folder gives
    /// `development` (when given) and whether the store's schema is what its history produces.
    /// This is the entry point `ckschema check` calls.
    public static func check(folder: MigrationFolder, store: Store?, environment: Environment = .development, development: Schema?) throws(InputError) -> MigrationStatus {
        var sumProblems: [Diagnostic] = []
        do { try folder.verifySum() } catch { sumProblems = error.diagnostics }
        var status: MigrationStatus
        if let store {
            status = try compare(folder: folder, history: try store.history(environment), environment: environment)
        } else {
            status = try compare(folder: folder, history: [], environment: environment)
        }
        status.diagnostics = sumProblems + status.diagnostics
        let replayed = try folder.replay()
        // A project with no migration and no store has not started migrations: not drift, as
        // `check` (which skips the step then) agrees (issue 32 point 5).
        if let development, !(folder.migrations.isEmpty && store == nil) {
            let steps = MigrationGenerator.steps(from: replayed, to: development)
            if !steps.steps.isEmpty || !steps.refused.isEmpty {
                let list = (steps.steps.map(\.summary) + steps.refused.map(\.message)).prefix(5).joined(separator: "; ")
                // Suggest `migrate new` only when it would work: the sum file matches and every
                // difference can be written as a step.
                let fix: String
                if let (type, field) = Self.fieldOnlyMigrationsHave(replayed, development) {
                    // Not `deprecated: true`: the YAML never had this field, a migration added it;
                    // the schema is behind the migrations, not retiring a field.
                    fix = "a migration adds '\(type).\(field.name)'; add it to the development schema as `\(field.name): { \(MigrationWriter.fieldSpec(field)) }` under \(type), or, if no store has applied that migration, take the step out of it"
                } else if let refused = steps.refused.first {
                    fix = "`migrate new` cannot write this change as a step: \(refused.fix ?? refused.message)"
                } else if !sumProblems.isEmpty {
                    fix = "run `ckschema migrate hash` after checking the migration files, then `ckschema migrate new NAME` to write the migration that closes the gap"
                } else {
                    fix = "run `ckschema migrate new NAME` to write the migration that closes the gap"
                }
                // Point at the first development element the replay lacks, else the schema file.
                let at = steps.refused.first?.location ?? steps.steps.first.flatMap { development.origin(of: $0) } ?? development.origin.location
                status.diagnostics.append(Diagnostic(rule: StoreRules.replayDrift,
                                                 "replaying \(folder.path) does not give the development schema; missing: \(list)\(steps.steps.count + steps.refused.count > 5 ? "; ..." : "")",
                                                 at: at, fix: fix))
            }
        }
        if let store, !status.entries.contains(where: { $0.state == .changed || $0.state == .missing }) {
            let last = status.entries.filter { $0.state == .applied }.map(\.version).max() ?? 0
            let expected = try folder.replay(upTo: last)
            let actual = try store.schema(environment)
            if expected.storeNormalized != actual.storeNormalized {
                let delta = MigrationGenerator.steps(from: expected, to: actual)
                let list = (delta.steps.map(\.summary) + delta.refused.map(\.message)).prefix(5).joined(separator: "; ")
                status.diagnostics.append(Diagnostic(rule: StoreRules.storeDrift,
                                                 "the store's \(environment.rawValue) schema is not what its migration history (up to \(last)) produces: \(list.isEmpty ? "they differ" : list)",
                                                 at: nil, fix: "the store was changed outside migrations (records import in development adds fields, promote --apply deploys); write a migration for it or rebuild the store"))
            }
        }
        return status
    }
}

extension MigrationStatus {
    /// The first field the replayed migrations have on a record type the development
    /// schema also has, and the development schema lacks.
    static func fieldOnlyMigrationsHave(_ replayed: Schema, _ development: Schema) -> (String, Field)? {
        for t in replayed.recordTypes {
            guard let d = development.recordType(named: t.name) else { continue }
            if let f = t.fields.first(where: { d.field(named: $0.name) == nil }) { return (t.name, f) }
        }
        return nil
    }
}

extension Schema {
    /// Where the element a migration step would add or change is written in this schema.
    func origin(of step: MigrationStep) -> SourceLocation? {
        if let z = (step.action as? AddZoneStep)?.zone { return zone(named: z.name)?.origin.location }
        guard let name = step.recordTypeName, let t = recordType(named: name) else { return nil }
        if let f = step.fieldName, let field = t.field(named: f) { return field.origin.location }
        return t.origin.location
    }
}

extension MigrationStatus {
    /// `migrate status --format json`: the versioned report docs/output.md documents
    /// (`version`, `command`, `environment`, `store`, each migration's state, diagnostics).
    public func jsonReport(store: String?) -> String {
        JSONValue.object([
            ("version", .int(1)),
            ("command", .string("migrate status")),
            ("environment", .string(environment.rawValue)),
            ("store", .optional(store)),
            ("migrations", .array(entries.map {
                .object([("version", .int($0.version)), ("name", .string($0.name)), ("state", .string($0.state.rawValue)), ("appliedAt", .optional($0.appliedAt))])
            })),
            ("diagnostics", .array(diagnostics.map(DiagnosticRenderer.jsonObject))),
        ]).rendered(pretty: true)
    }
}
