import Foundation
import Testing
import CKSchemaTesting

/// docs/testing.md's example, through the platform-neutral engine: the app's save of a trip
/// with `tags` (a field development has and production lacks) fails against production with
/// 12/2006 before release, and passes against development, which names the deploy it needs.
@Suite struct TestingDocExampleTests {
    /// The app's code under test: it saves a trip the way the app does.
    struct TripSaver {
        let database: FakeCloudKit.Database

        func save(title: String, tags: [String]) async throws -> CloudRecord {
            _ = try await database.modifyRecordZones(saving: [CloudZone(name: "Journal")], deleting: [])
            var trip = CloudRecord(recordType: "Trip", recordName: "trip-1", zoneName: "Journal")
            trip["title"] = .string(title)
            trip["startedAt"] = .timestamp(Date(timeIntervalSince1970: 1_700_000_000))
            trip["tags"] = .list(tags.map { .string($0) })
            trip.encrypted["notes"] = "windy at the top"
            let (saved, _) = try await database.modifyRecords(saving: [trip], deleting: [])
            return try saved[trip.id]!.get()
        }
    }

    @Test func productionRefusesTheNewFieldBeforeRelease() async throws {
        let cloud = try FakeCloudKit(schema: Paths.root + "/Schemas/production.yaml", environment: .production)
        do {
            _ = try await TripSaver(database: cloud.database(.private)).save(title: "Ridge", tags: ["alpine"])
            Issue.record("production saved a field it lacks")
        } catch let error as CloudKitError {
            #expect(error.code == .invalidArguments)
            #expect(error.serverCode == 2006)
            #expect(error.message == "Cannot create or modify field 'tags' in record 'Trip' in production schema")
        }
    }

    @Test func developmentSavesItAndNamesTheDeploy() async throws {
        let cloud = try FakeCloudKit(schema: Paths.root + "/Schemas/production.yaml", environment: .development)
        let saved = try await TripSaver(database: cloud.database(.private)).save(title: "Ridge", tags: ["alpine"])
        #expect(saved["tags"] == ["alpine"])
        #expect(saved.recordChangeTag != nil)
        #expect(cloud.developmentAdditions.map(\.description) == ["field Trip.tags (list<string>)"])
    }

    /// A fake per test is cheap: the Trailmark schema loads into a fresh container quickly
    /// (Benchmarks/testing measures it; this loose bound, for a debug build on a loaded machine, only catches a gross regression).
    @Test func aFakePerTestIsCheap() throws {
        let start = Date()
        for _ in 0..<10 { _ = try FakeCloudKit(schema: Paths.root + "/Schemas/development.yaml") }
        #expect(Date().timeIntervalSince(start) / 10 < 1.0)
    }
}
