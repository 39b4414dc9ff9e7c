import Foundation
import Testing
@testable import CKSchema

/// The repository's own `Migrations/` (the Trailmark example app) against its `Schemas/`.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: Paths.root + "/Schemas/development.yaml"), "needs the example app's Schemas/"))
struct RepositoryMigrationsTests {
    static let folderPath = Paths.root + "/Migrations"

    @Test func theSumFileMatchesAndThereAreAtLeastFiveMigrationsWithABackfill() throws {
        let folder = try MigrationFolder.load(path: Self.folderPath)
        try folder.verifySum()
        #expect(folder.migrations.count >= 5)
        #expect(folder.migrations.flatMap(\.steps).contains { if case .backfill = $0.action { true } else { false } })
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
}
