import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

@Suite struct MigratorTests {
    /// Applies migration 1, inserts two notes, and returns the sandbox and store.
    static func seeded(count: Int = 5) throws -> (MigrationSandbox, Store) {
        let sb = try MigrationSandbox(fixtureCount: count)
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 1))
        try MigrationSandbox.insert(store, type: "Note", name: "n1", fields: #"{"title":"Hello","body":"the quick brown fox","views":42}"#)
        try MigrationSandbox.insert(store, type: "Note", name: "n2", fields: #"{"title":"World","body":"jumps","views":7}"#)
        return (sb, store)
    }

    static func fields(_ store: Store, _ name: String) throws -> JSONValue {
        try JSONValue.parse(try #require(try store.recordFields(.development, zone: "Notes", recordName: name)))
    }

    @Test func appliesEveryStepKindAndRecordsTheHistory() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        let result = try Migrator.apply(folder: try sb.folder(), store: store, options: .init())
        #expect(result.applied.map(\.version) == [2, 3, 4, 5])
        let history = try store.history(.development)
        #expect(history.map(\.name) == ["initial", "add_fields", "backfill", "copy", "retire"])
        #expect(history.map(\.checksum) == (try sb.folder()).migrations.map(\.checksum))
        #expect(history.allSatisfy { $0.ckschemaVersion == CKSchemaVersion.current && !$0.appliedAt.isEmpty })
        #expect(try store.history(.production).isEmpty)

        // Data steps: an expression backfill, a constant backfill, copies with conversion.
        let n1 = try Self.fields(store, "n1")
        #expect(n1["wordCount"] == .int(19))
        #expect(n1["category"] == .string("general"))
        #expect(n1["viewsText"] == .string("42"))
        #expect(n1["categories"] == .array([.string("general")]))
        #expect(try Self.fields(store, "n2")["wordCount"] == .int(5))

        // The store's schema is the replay, and the removeIndex warning is reported.
        #expect(try store.schema(.development).storeNormalized == (try sb.folder().replay()).storeNormalized)
        #expect(try store.schemaHash(.development) == (try store.schema(.development)).canonicalHash)
        #expect(result.diagnostics.map(\.code) == ["CK541"])
    }

    @Test func schemaIndexesAreRealSQLiteIndexesTheQueryPlannerUses() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init())
        let names = try store.indexes(.development).map { "\($0.recordType).\($0.field):\($0.kind.rawValue)" }
        #expect(names == ["Note.body:fts", "Note.category:btree", "Note.createdAt:btree", "Note.title:btree", "Note.views:btree", "Tag.label:btree"])
        let sql = try Store.equalityQuery(env: .development, recordType: "Note", field: "title")
        #expect(try store.queryPlan(sql).joined().contains("USING INDEX ix:development:Note:title"))
        #expect(try store.strings(sql, "Hello") == ["n1"])
        // Searchable: FTS5, kept current by triggers (n3 is inserted after the index exists).
        try MigrationSandbox.insert(store, type: "Note", name: "n3", fields: #"{"title":"x","body":"a quick note"}"#)
        #expect(try store.strings(Store.searchQuery(env: .development, recordType: "Note", field: "body"), "quick").sorted() == ["n1", "n3"])
    }

    @Test func removingAnIndexDropsIt() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        try sb.write("0006_drop.yaml", "steps:\n  - removeIndex: { recordType: Note, field: title, kind: queryable }\n  - removeIndex: { recordType: Note, field: body, kind: searchable }\n")
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init())
        #expect(try store.indexes(.development).contains { $0.field == "title" || $0.field == "body" } == false)
        #expect(try store.db.scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE '%Note:title%' OR name LIKE '%Note:body%'")?.integer == 0)
        let plan = try store.queryPlan(Store.equalityQuery(env: .development, recordType: "Note", field: "title")).joined()
        #expect(!plan.contains("ix:development:Note:title"))
    }

    @Test func aDryRunChangesNothing() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        let before = sb.fileBytes()
        let result = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(dryRun: true))
        #expect(result.migrations.map(\.version) == [2, 3, 4, 5])
        #expect(result.applied.isEmpty)
        #expect(result.recordsChanged > 0)
        #expect(sb.fileBytes() == before)
        #expect(try store.history(.development).count == 1)
    }

    @Test func toVersionStopsThere() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 3))
        #expect(try store.history(.development).map(\.version) == [1, 2, 3])
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 2)) }
        #expect(e.diagnostics[0].message.contains("migrations never go backwards"))
    }

    @Test func aFailureMidwayThroughAMigrationLeavesTheStoreAsItWas() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 2))
        try store.db.transaction {
            for i in 0..<3000 {
                try MigrationSandbox.insert(store, type: "Note", name: "bulk\(i)", fields: #"{"title":"t\#(i)","body":"some words in a body"}"#)
            }
        }
        let before = try store.contentDigest()
        // The disk fills up during migration 3's backfill: SQLite reports SQLITE_FULL mid-UPDATE.
        let pages = try #require(try store.db.scalar("PRAGMA page_count")?.integer)
        try store.limitPages(Int(pages) + 2)
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init()) }
        #expect(e.diagnostics[0].code == "CK504")
        #expect(e.diagnostics[0].message.contains("is full; nothing was changed"))
        #expect(try store.contentDigest() == before)
        #expect(try store.history(.development).map(\.version) == [1, 2])
        #expect(try store.db.scalar("SELECT count(*) FROM lock")?.integer == 0)
    }

    @Test func aBadStepInALaterMigrationStopsTheRunBeforeAnythingIsApplied() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        try sb.write("0006_bad.yaml", "steps:\n  - addField: { recordType: Note, name: x, type: string }\n  - backfill: { recordType: Missing, field: x, value: y }\n")
        let before = try store.contentDigest()
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init()) }
        #expect(e.diagnostics[0].code == "CK515")
        #expect(e.diagnostics[0].location?.file.hasSuffix("0006_bad.yaml") == true)
        #expect(try store.contentDigest() == before)
    }

    @Test func productionRefusesADeletionThatDevelopmentAccepts() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        try sb.write("0006_remove.yaml", "steps:\n  - removeField: { recordType: Note, field: viewsText }\n")
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .production, targetVersion: 5))
        let before = try store.contentDigest()
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .production)) }
        // The same rule, code and words as `promote` (CK302), at the step, with the fix in
        // the migration file's own terms.
        #expect(e.diagnostics[0].code == "CK302")
        #expect(e.diagnostics[0].message == "0006_remove.yaml: field 'Note.viewsText' is in production and cannot be deleted")
        #expect(e.diagnostics[0].location?.line == 2)
        #expect(e.diagnostics[0].fix == "use `deprecate: { recordType: Note, field: viewsText }` instead")
        #expect(try store.contentDigest() == before)
        let dev = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .development))
        #expect(dev.applied.count == 6)
        #expect(try store.schema(.development).recordType(named: "Note")?.field(named: "viewsText") == nil)
    }

    @Test func anEditedAppliedMigrationIsAnErrorNotASilentSkip() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        try sb.write("0001_initial.yaml", try read(sb.migrations + "/0001_initial.yaml").replacingOccurrences(of: "views: int64", with: "views: double"))
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init()) }
        #expect(e.diagnostics.map(\.code) == ["CK530"])
        #expect(e.diagnostics[0].message == "migration 0001_initial.yaml is applied to development, but its file has changed since it was applied")
    }

    @Test func aSumMismatchStopsEveryMigrateCommand() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        try sb.write("0006_unhashed.yaml", "steps:\n  - addRole: { name: X }\n", hash: false)
        let before = sb.fileBytes()
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init()) }
        #expect(e.diagnostics[0].code == "CK520")
        #expect(sb.fileBytes() == before)
    }

    @Test func aLiveHolderMakesTheSecondRunWaitThenFailNamingIt() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        try store.db.run("INSERT INTO lock VALUES (1, ?, ?, ?, 'migrate apply --env development', '2026-01-01T00:00:00Z', 'other')",
                         [.integer(Int64(getpid())), .text(StoreLock.processStart(Int(getpid()))), .text(StoreLock.hostName())])
        let e = try #require(throws: InputError.self) { try Migrator.apply(folder: try sb.folder(), store: store, options: .init(lockTimeout: 0.3)) }
        #expect(e.diagnostics[0].code == "CK505")
        #expect(e.diagnostics[0].message.contains("locked by pid \(getpid()) on host '\(StoreLock.hostName())'"))
        #expect(e.diagnostics[0].message.contains("waited 0.3s"))
        #expect(try store.history(.development).count == 1)
    }

    @Test func aStaleLockFromADeadProcessIsTakenOver() throws {
        let (sb, store) = try Self.seeded()
        defer { sb.cleanup() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        let dead = Int64(p.processIdentifier)
        try store.db.run("INSERT INTO lock VALUES (1, ?, '', ?, 'migrate apply', '2026-01-01T00:00:00Z', 'old')", [.integer(dead), .text(StoreLock.hostName())])
        let result = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(lockTimeout: 0))
        #expect(result.applied.count == 4)
        #expect(result.diagnostics.contains { $0.message.contains("took over a stale lock left by pid \(dead)") })
        #expect(try store.db.scalar("SELECT count(*) FROM lock")?.integer == 0)
    }
}

@Suite struct MigrationStatusTests {
    @Test func reportsAppliedPendingChangedAndMissing() throws {
        let (sb, store) = try MigratorTests.seeded()
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 3))
        // 2 is changed, 3 is missing from the folder, 4 and 5 are pending (renumbered to close the gap).
        try sb.write("0002_add_fields.yaml", try read(sb.migrations + "/0002_add_fields.yaml") + "  - addRole: { name: Late }\n", hash: false)
        try FileManager.default.removeItem(atPath: sb.migrations + "/0003_backfill.yaml")
        try FileManager.default.moveItem(atPath: sb.migrations + "/0004_copy.yaml", toPath: sb.migrations + "/0003_copy.yaml")
        try FileManager.default.moveItem(atPath: sb.migrations + "/0005_retire.yaml", toPath: sb.migrations + "/0004_retire.yaml")
        try sb.hash()
        let status = try MigrationStatus.compare(folder: try sb.folder(), history: try store.history(.development), environment: .development)
        #expect(status.entries.map { "\($0.version):\($0.state.rawValue)" } == ["1:applied", "2:changed", "3:changed", "4:pending"])
        let h = try store.history(.development)
        let folder = try sb.folder()
        let trimmed = MigrationFolder(path: folder.path, migrations: Array(folder.migrations.prefix(2)))
        let missing = try MigrationStatus.compare(folder: trimmed, history: h, environment: .development)
        #expect(missing.entries.map(\.state) == [.applied, .changed, .missing])
        #expect(missing.diagnostics.map(\.code) == ["CK530", "CK531"])
    }

    @Test func noDriftWhenReplayEqualsDevelopmentAndTheStoreItsHistory() throws {
        let (sb, store) = try MigratorTests.seeded()
        defer { sb.cleanup() }
        let dev = try SchemaSource.load(path: Paths.fixture("store/development.yaml"))
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 3))
        let status = try MigrationStatus.check(folder: try sb.folder(), store: store, development: dev)
        #expect(status.entries.map(\.state) == [.applied, .applied, .applied, .pending, .pending])
        // One note for both pending migrations (issue 32 point 5), at the first.
        #expect(status.diagnostics.map(\.code) == ["CK532"])
        #expect(status.diagnostics.first?.message == "2 migrations (0004_copy.yaml to 0005_retire.yaml) are not yet applied to development")
    }

    @Test func reportsReplayDriftAndStoreDrift() throws {
        let (sb, store) = try MigratorTests.seeded(count: 4)
        defer { sb.cleanup() }
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init())
        let dev = try SchemaSource.load(path: Paths.fixture("store/development.yaml"))
        // The store is changed behind the history's back.
        var s = try store.schema(.development)
        s.roles.append(Role(name: "Sneaky"))
        try store.db.transaction { try store.writeSchema(s, env: .development) }
        let status = try MigrationStatus.check(folder: try sb.folder(), store: store, development: dev)
        let codes = status.diagnostics.map(\.code)
        #expect(codes == ["CK533", "CK534"])
        #expect(status.diagnostics[0].message.contains("addRecordType Tag"))
        #expect(status.diagnostics[1].message.contains("Sneaky"))
    }
}

@Suite struct MigrationGeneratorTests {
    @Test func writesTheNextMigrationFromTheDiffAndItReplaysToDevelopment() throws {
        let sb = try MigrationSandbox(fixtureCount: 4)
        defer { sb.cleanup() }
        let dev = try SchemaSource.load(path: Paths.fixture("store/development.yaml"))
        let (path, text) = try #require(try MigrationGenerator.newMigration(folder: try sb.folder(), name: "retire", development: dev))
        #expect(path.hasSuffix("Migrations/0005_retire.yaml"))
        #expect(text.contains("removeIndex: { recordType: Note, field: title, kind: sortable }"))
        #expect(text.contains("deprecate: { recordType: Note, field: secret }"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try sb.folder().replay().storeNormalized == dev.storeNormalized)
    }

    @Test func refusesAChangeProductionWouldRefuseAndSaysWhatToDo() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        var dev = try SchemaSource.load(path: Paths.fixture("store/development.yaml"))
        let i = try #require(dev.recordTypes.firstIndex { $0.name == "Note" })
        dev.recordTypes[i].fields.removeAll { $0.name == "views" }
        let j = try #require(dev.recordTypes[i].fields.firstIndex { $0.name == "wordCount" })
        dev.recordTypes[i].fields[j].type = FieldType(.string)
        let e = try #require(throws: InputError.self) { try MigrationGenerator.newMigration(folder: try sb.folder(), name: "bad", development: dev) }
        #expect(e.diagnostics.map(\.message).sorted() == [
            "field 'Note.views' is gone from the development schema; production never deletes a deployed field",
            "field 'Note.wordCount' changed type (int64 to string); production never retypes a deployed field",
        ])
        #expect(e.diagnostics.allSatisfy { $0.code == "CK540" && $0.fix != nil })
        #expect(!FileManager.default.fileExists(atPath: sb.migrations + "/0006_bad.yaml"))
    }
}
