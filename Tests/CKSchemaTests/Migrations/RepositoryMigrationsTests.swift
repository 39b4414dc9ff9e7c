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

/// The repository's own `Migrations/` (the Trailmark example app) against its `Schemas/`.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: Paths.root + "/Schemas/development.yaml"), "needs the example app's Schemas/"))
struct RepositoryMigrationsTests {
    static let folderPath = Paths.root + "/Migrations"

    @Test func theSumFileMatchesAndThereAreAtLeastFiveMigrationsWithABackfill() throws {
        let folder = try MigrationFolder.load(path: Self.folderPath)
        try folder.verifySum()
        #expect(folder.migrations.count >= 5)
        #expect(folder.migrations.flatMap(\.steps).contains { $0.action is BackfillStep })
    }

    @Test func replayingEveryMigrationGivesTheDevelopmentSchema() throws {
        let folder = try MigrationFolder.load(path: Self.folderPath)
        let dev = try SchemaSource.load(path: Paths.root + "/Schemas/development.yaml")
        #expect(try folder.replay().storeNormalized == dev.storeNormalized)
        let status = try MigrationStatus.check(folder: folder, store: nil, development: dev)
        #expect(status.diagnostics.allSatisfy { $0.severity == .note })
    }

    @Test func theFirstTwoMigrationsGiveWhatProductionHolds() throws {
        let folder = try MigrationFolder.load(path: Self.folderPath)
        let prod = try SchemaSource.load(path: Paths.root + "/Schemas/production.yaml")
        #expect(try folder.replay(upTo: 2).storeNormalized == prod.storeNormalized)
    }

    @Test func theSeedRecordsImportIntoTheMigratedStoreAndRoundTrip() throws {
        let dir = try makeTempDir("ckschema-repo-store")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folder = try MigrationFolder.load(path: Self.folderPath)
        var exported: [[JSONValue]] = []
        var input = [Paths.root + "/Schemas/fixtures/seed-trips.ndjson"]
        for round in 0..<2 {
            let store = try Store(path: dir + "/store\(round).sqlite")
            _ = try Migrator.apply(folder: folder, store: store, options: .init())
            let r = try RecordImporter.importFiles(input, into: store, options: .init())
            #expect(r.failed == 0 && r.saved == 2, "\(r.diagnostics)")
            var data = Data()
            try RecordExporter.export(from: store, environment: .development) { data.append($0) }
            try data.write(to: URL(fileURLWithPath: dir + "/export\(round).ndjson"))
            input = [dir + "/export\(round).ndjson"]
            exported.append(try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
                guard case .object(let pairs) = try JSONValue.parse(String(line)) else { return .null }
                return .object(pairs.filter { !["recordChangeTag", "created", "modified"].contains($0.0) })
            })
        }
        #expect(exported[0] == exported[1])
        // An encrypted field goes out as Web Services writes it.
        #expect(exported[0].first?["fields"]?["notes"]?["type"] == .string("ENCRYPTED_STRING"))
    }
}
