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

@Suite struct RecordImportTests {
    /// A store with the fixture history applied to both environments.
    static func migrated() throws -> (MigrationSandbox, Store) {
        let sb = try MigrationSandbox(fixtureCount: 5)
        let store = try sb.open()
        for env in Environment.allCases { _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: env)) }
        return (sb, store)
    }

    static func export(_ store: Store, _ env: Environment) throws -> [JSONValue] {
        var data = Data()
        try RecordExporter.export(from: store, environment: env) { data.append($0) }
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    @Test func importsWebServicesRecordsAndExportsThemBack() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let r = try RecordImporter.importFiles([Paths.fixture("store/records/notes.ndjson")], into: store, options: .init(environment: .production))
        #expect(r.saved == 3 && r.failed == 0 && r.diagnostics.isEmpty)
        let out = try Self.export(store, .production)
        #expect(out.map { $0["recordName"]?.stringValue } == ["n1", "n2", "t1"])
        #expect(out[0]["zoneID"]?["zoneName"] == .string("Notes"))
        #expect(out[0]["fields"]?["views"] == .object([("value", .int(42)), ("type", .string("INT64"))]))
        #expect(out[1]["fields"]?["categories"]?["type"] == .string("STRING_LIST"))
        #expect(out[2]["zoneID"]?["zoneName"] == .string("_defaultZone"))
        #expect(out.allSatisfy { ($0["recordChangeTag"]?.stringValue?.isEmpty ?? true) == false })
        // Indexes serve the imported records.
        #expect(try store.strings(Store.equalityQuery(env: .production, recordType: "Note", field: "title"), "World") == ["n2"])
    }

    @Test func productionRefusesUnknownFieldsWithTheValidatorsRules() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let path = Paths.fixture("store/records/bad-production.ndjson")
        let r = try RecordImporter.importFiles([path], into: store, options: .init(environment: .production))
        #expect(r.saved == 1)
        #expect(r.failed == 5)
        let byLine = Dictionary(r.diagnostics.map { ($0.location?.line ?? 0, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byLine[1]?.code == "CK555")
        #expect(byLine[2]?.code == "CK402")
        #expect(byLine[2]?.message == "record #2 'n4', field 'titel': Cannot create or modify field 'titel' in record 'Note' in production schema")
        #expect(byLine[4]?.code == "CK405")
        #expect(byLine[5]?.code == "CK401")
        #expect(byLine[6]?.code == "CK400")
        #expect(try Self.export(store, .production).map { $0["recordName"]?.stringValue } == ["t2"])
    }

    /// A line validate refuses (a leading zero) that is still JSON fails its atomic zone's
    /// batch, as it did when the importer parsed every line itself (it now reads the tape).
    @Test func aRecordValidateRefusesStillFailsItsAtomicZonesBatch() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let file = sb.root + "/zero.ndjson"
        try Data("""
            {"recordName":"n3","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"ok","type":"STRING"}}}
            {"recordName":"n4","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"views":{"value":01,"type":"INT64"}}}
            {"recordName":"t2","recordType":"Tag","fields":{"label":{"value":"fine","type":"STRING"}}}
            """.utf8).write(to: URL(fileURLWithPath: file))
        let r = try RecordImporter.importFiles([file], into: store, options: .init(environment: .production))
        #expect(r.diagnostics.map(\.code) == ["CK555", "CK400"])
        #expect(r.saved == 1 && r.failed == 2)
    }

    @Test func theImportersOwnChecksBackUpTheValidator() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let path = Paths.fixture("store/records/bad-production.ndjson")
        var options = RecordImporter.Options(environment: .production)
        options.runsRecordChecks = false
        let r = try RecordImporter.importFiles([path], into: store, options: options)
        #expect(r.saved == 1)
        #expect(r.failed == 5)
        let byLine = Dictionary(r.diagnostics.map { ($0.location?.line ?? 0, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byLine[1]?.code == "CK555")
        #expect(byLine[2]?.code == "CK552")
        #expect(byLine[2]?.message == "record #2 'n4', field 'titel': 'Note' does not have it in production; did you mean 'title'?")
        #expect(byLine[4]?.code == "CK553")
        #expect(byLine[5]?.code == "CK551")
        #expect(byLine[6]?.code == "CK550")
        #expect(try Self.export(store, .production).map { $0["recordName"]?.stringValue } == ["t2"])
    }

    @Test func developmentAddsANewFieldToItsSchemaAsCloudKitDoes() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let file = sb.root + "/new.ndjson"
        try Data(#"{"recordName":"t9","recordType":"Tag","fields":{"color":{"value":"blue","type":"STRING"}}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try RecordImporter.importFiles([file], into: store, options: .init(environment: .development))
        #expect(r.saved == 1)
        #expect(r.diagnostics.map(\.code) == ["CK557"])
        #expect(try store.schema(.development).recordType(named: "Tag")?.field(named: "color")?.type == FieldType(.string))
        // ... and migrate status now reports the store drifting from its history.
        let status = try MigrationStatus.check(folder: try sb.folder(), store: store, development: nil)
        #expect(status.diagnostics.map(\.code) == ["CK534"])
    }

    /// `records import` refuses what validate refuses: a misspelt key of a record (named with
    /// the key it meant, CK415) and a record outside its type's zone (CK904), and saves the rest
    /// (issue 32, point 6).
    @Test func importRefusesStrayKeysAndWrongZones() throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        let file = sb.root + "/in.ndjson"
        let lines = [
            #"{"recordName":"a1","recordType":"Memo","zoneID":{"zoneName":"Plain"},"fields":{"text":"buy tea"}}"#,
            #"{"recordName":"a2","recordType":"Memo","zoneID":{"zoneName":"Plain"},"feilds":{"text":"buy tea"}}"#,
            #"{"recordName":"a3","recordType":"Note","fields":{"title":"in the default zone"}}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let r = try runCLI(["records", "import", "--store", sb.storePath, file])
        #expect(r.code == 1)
        let out = (r.stdout + r.stderr).replacingOccurrences(of: sb.root, with: "ROOT")
        #expect(out.contains("ROOT/in.ndjson:2:70: error: record #2 'a2': unknown key 'feilds' in the record; did you mean 'fields'? [CK415]"), "\(out)")
        #expect(out.contains("ROOT/in.ndjson:3:33: error: record #3 'a3': a 'Note' record is saved in the default zone, but the schema puts 'Note' in zone 'Notes' [CK904]"), "\(out)")
    }

    /// `checksRecordZones` is the checker's input (issue 33, speed point 2): on, a record outside
    /// its type's zone is CK904 as before; off (an in-memory CloudKit), the check does not run,
    /// so the record is saved and nothing names CK904.
    @Test func recordZonesCheckIsAnInputOfTheChecker() throws {
        let line = #"{"recordName":"a3","recordType":"Note","fields":{"title":{"value":"in the default zone","type":"STRING"}}}"#
        for checks in [true, false] {
            let sb = try RuntimeSandbox(importRecords: false)
            defer { sb.cleanup() }
            var options = RecordImporter.Options()
            options.checksRecordZones = checks
            let r = try RecordImporter.importRecords(lines: [line], source: "mem", into: sb.store, options: options)
            if checks {
                #expect(r.saved == 0)
                #expect(r.diagnostics.map(\.code) == ["CK904"])
                #expect(r.diagnostics.first.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0)" } == "1:33")
            } else {
                #expect(r.saved == 1)
                #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.message))")
            }
            // The checker itself: off, it does not produce CK904 at all (a filter after the
            // check, as before issue 33, would pass the import assertions above but not this).
            var checker = RecordChecker(schema: CompiledSchema(try sb.store.schema(.development)), production: false, collectBatch: false, checksRecordZones: checks)
            var chunk = ChunkResult()
            var bytes = Array(line.utf8)
            bytes.withUnsafeMutableBufferPointer { b in
                _ = checker.check(UnsafePointer(b.baseAddress!), b.count, index: 0, position: .bytes(line: 0, column: 1), into: &chunk)
            }
            #expect(chunk.diagnostics.map(\.code) == (checks ? ["CK904"] : []))
        }
    }

    /// A batch's new records are inserted together (`Store.insertNewRecords`, 100 a statement,
    /// issue 33's speed) and its existing ones saved one by one: the ids still follow the lines
    /// (an existing record keeps its id), each record's change tag is the n-th of the import in
    /// line order, and the searchable field's FTS5 table finds every record.
    @Test func aBatchOfNewAndExistingRecordsKeepsLineOrderIdsTagsAndSearch() throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        func line(_ k: Int, _ title: String) -> String {
            #"{"recordName":"n\#(k)","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"\#(title) \#(k)","type":"STRING"}}}"#
        }
        let options = RecordImporter.Options(environment: .development, savePolicy: .allKeys)
        let first = try RecordImporter.importRecords(lines: (40..<50).map { line($0, "early") }, source: "first", into: sb.store, options: options)
        #expect(first.saved == 10 && first.failed == 0)
        let r = try RecordImporter.importRecords(lines: (0..<150).map { line($0, "walk") }, source: "second", into: sb.store, options: options)
        #expect(r.saved == 150 && r.failed == 0, "\(r.diagnostics.map(\.message))")
        let rows = try sb.store.db.rows("SELECT record_name, id, change_tag FROM records WHERE env = 'development' ORDER BY id")
        let names = rows.map { $0[0].text ?? "" }
        #expect(names == (40..<50).map { "n\($0)" } + (0..<40).map { "n\($0)" } + (50..<150).map { "n\($0)" })
        let ids = rows.map { $0[1].integer ?? 0 }
        #expect(ids == Array(1...150).map(Int64.init))
        let tags = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].text ?? "", $0[2].text ?? "") })
        let sequence = tags["n0"].map { String($0.split(separator: "-").dropLast().joined(separator: "-")) } ?? ""
        for k in 0..<150 { #expect(tags["n\(k)"] == sequence + "-" + String(k + 1, radix: 36), "n\(k)") }
        let found = try sb.store.strings(Store.searchQuery(env: .development, recordType: "Note", field: "title"), "walk")
        #expect(found.count == 150)
        #expect(try sb.store.strings(Store.searchQuery(env: .development, recordType: "Note", field: "title"), "early").isEmpty)
    }

    @Test func aRecordInAZoneTheSchemaDoesNotHaveIsRefused() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let file = sb.root + "/zone.ndjson"
        try Data(#"{"recordName":"t9","recordType":"Tag","zoneID":{"zoneName":"Elsewhere"},"fields":{}}"#.utf8).write(to: URL(fileURLWithPath: file))
        let r = try RecordImporter.importFiles([file], into: store, options: .init())
        #expect(r.saved == 0)
        #expect(r.diagnostics.map(\.code) == ["CK556"])
        #expect(r.diagnostics.first?.message == "record #1 't9': zone 'Elsewhere' is not in the development schema")
    }

    @Test func aMigrationAdoptsAFieldDevelopmentAddedJustInTime() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(targetVersion: 3))
        // notes.ndjson writes Note.categories, which migration 4 adds: development adds it first.
        let r = try RecordImporter.importFiles([Paths.fixture("store/records/notes.ndjson")], into: store, options: .init())
        #expect(r.diagnostics.contains { $0.code == "CK557" && $0.message.contains("Note.categories") })
        #expect(try MigrationStatus.check(folder: try sb.folder(), store: store, development: nil).diagnostics.contains { $0.code == "CK534" })
        let applied = try Migrator.apply(folder: try sb.folder(), store: store, options: .init())
        #expect(applied.applied.map(\.version) == [4, 5])
        #expect(try MigrationStatus.check(folder: try sb.folder(), store: store, development: nil).diagnostics.filter { $0.severity == .error }.isEmpty)
        // Production never adopts: there the field must not exist before its migration.
        var replayed = try sb.folder().replay(upTo: 3)
        replayed.recordTypes[0].fields.append(Field(name: "categories", type: .list(.string)))
        let m = try sb.folder().migrations[3]
        #expect(throws: InputError.self) { try SchemaChanger.apply(m, to: &replayed) }
    }

    @Test func aStaleChangeTagIsAConflictNamingTheRecord() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        _ = try RecordImporter.importFiles([Paths.fixture("store/records/notes.ndjson")], into: store, options: .init())
        let tag = try #require(try Self.export(store, .development).first { $0["recordName"] == .string("t1") }?["recordChangeTag"]?.stringValue)
        let file = sb.root + "/update.ndjson"
        func write(_ tag: String?) throws {
            let t = tag.map { #","recordChangeTag":"\#($0)""# } ?? ""
            try Data(#"{"recordName":"t1","recordType":"Tag"\#(t),"fields":{"label":{"value":"green","type":"STRING"}}}"#.utf8).write(to: URL(fileURLWithPath: file))
        }
        try write("stale")
        var r = try RecordImporter.importFiles([file], into: store, options: .init())
        #expect(r.saved == 0)
        #expect(r.diagnostics.map(\.message) == ["record #1 't1': conflict saving it: its change tag is '\(tag)' in the store, 'stale' in the file (stale)"])
        try write(nil)
        r = try RecordImporter.importFiles([file], into: store, options: .init())
        #expect(r.diagnostics.first?.code == "CK554")
        try write(tag)
        r = try RecordImporter.importFiles([file], into: store, options: .init())
        #expect(r.saved == 1 && r.diagnostics.isEmpty)
        let after = try Self.export(store, .development).first { $0["recordName"] == .string("t1") }
        #expect(after?["fields"]?["label"]?["value"] == .string("green"))
        #expect(after?["recordChangeTag"]?.stringValue != tag)
    }

    @Test func changedKeysMergesAndAllKeysReplaces() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        _ = try RecordImporter.importFiles([Paths.fixture("store/records/notes.ndjson")], into: store, options: .init())
        let file = sb.root + "/partial.ndjson"
        try Data(#"{"recordName":"n1","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"views":{"value":43,"type":"INT64"}}}"#.utf8).write(to: URL(fileURLWithPath: file))
        _ = try RecordImporter.importFiles([file], into: store, options: .init(savePolicy: .changedKeys))
        var n1 = try MigratorTests.fields(store, "n1")
        #expect(n1["views"] == .int(43) && n1["title"] == .string("Hello"))
        _ = try RecordImporter.importFiles([file], into: store, options: .init(savePolicy: .allKeys))
        n1 = try MigratorTests.fields(store, "n1")
        #expect(n1["views"] == .int(43) && n1["title"] == nil)
    }

    @Test func aFullDiskDuringImportLeavesTheStoreAsItWas() throws {
        let (sb, store) = try Self.migrated()
        defer { sb.cleanup() }
        let file = sb.root + "/many.ndjson"
        var text = ""
        for i in 0..<2000 { text += #"{"recordName":"r\#(i)","recordType":"Tag","fields":{"label":{"value":"label number \#(i)","type":"STRING"}}}"# + "\n" }
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let before = try store.contentDigest()
        try store.limitPages(Int(try #require(try store.db.scalar("PRAGMA page_count")?.integer)) + 3)
        let e = try #require(throws: InputError.self) { try RecordImporter.importFiles([file], into: store, options: .init()) }
        #expect(e.diagnostics[0].code == "CK504")
        #expect(try store.contentDigest() == before)
    }
}

@Suite struct StoreDeployerTests {
    @Test func deploysTheDevelopmentSchemaToProductionWithoutRecords() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .production, targetVersion: 4))
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .development))
        _ = try RecordImporter.importFiles([Paths.fixture("store/records/notes.ndjson")], into: store, options: .init(environment: .development))
        let prod = try sb.folder().replay(upTo: 4)
        let dev = try store.schema(.development)
        let result = try StoreDeployer.deploy(expectedProduction: prod, development: dev, store: store)
        #expect(result.toHash == dev.canonicalHash)
        #expect(try store.schema(.production).storeNormalized == dev.storeNormalized)
        #expect(try store.recordCount(.production) == 0)
        #expect(try store.indexes(.production).contains { $0.recordType == "Tag" })
        // The same plan again is stale: production has moved on.
        let e = try #require(throws: InputError.self) { try StoreDeployer.deploy(expectedProduction: prod, development: dev, store: store) }
        #expect(e.diagnostics[0].message.hasPrefix("the store's production schema is not the one the plan was computed from"))
    }

    @Test func refusesWhatProductionWouldRefuseAndChangesNothing() throws {
        let sb = try MigrationSandbox(fixtureCount: 5)
        defer { sb.cleanup() }
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .production))
        var dev = try store.schema(.production)
        let i = try #require(dev.recordTypes.firstIndex { $0.name == "Note" })
        dev.recordTypes[i].fields.removeAll { $0.name == "views" }
        let before = try store.contentDigest()
        let e = try #require(throws: InputError.self) {
            try StoreDeployer.deploy(expectedProduction: try store.schema(.production), development: dev, store: store)
        }
        #expect(e.diagnostics.count == 1)
        #expect(e.diagnostics[0].code.hasPrefix("CK3"))
        #expect(e.diagnostics[0].message.contains("views"))
        #expect(try store.contentDigest() == before)
    }
}
