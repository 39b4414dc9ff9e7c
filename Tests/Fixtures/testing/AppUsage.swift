// docs/testing.md's example as an app on Apple platforms writes it: the app's code saves
// through `CloudDatabase`, its test runs it against `FakeCloudDatabase`. Type-checked on Linux
// against the SDK stub together with Sources/CKSchemaTesting/CloudDatabase.swift
// (Tests/CKSchemaTests/Testing/AdapterTypecheckTests.swift).
import CloudKit
import CKSchemaTesting

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct TripSaver {
    let database: any CloudDatabase

    func save(title: String, tags: [String]) async throws -> CKRecord {
        let zone = CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Journal"))
        _ = try await database.modifyRecordZones(saving: [zone], deleting: [])
        let trip = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "trip-1", zoneID: zone.zoneID))
        trip["title"] = title
        trip["startedAt"] = Date()
        trip["tags"] = tags
        trip.encryptedValues["notes"] = "windy at the top"
        let (saved, _) = try await database.modifyRecords(saving: [trip], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        return try saved[trip.recordID]!.get()
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func productionRefusesTheNewFieldBeforeRelease() async throws -> Bool {
    let database = try FakeCloudDatabase(schema: "Schemas/production.ckdb", environment: .production)
    do {
        _ = try await TripSaver(database: database).save(title: "Ridge", tags: ["alpine"])
        return false
    } catch let error as CKError {
        return error.code == .invalidArguments
    }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func developmentNamesTheDeploy() async throws -> [String] {
    let database = try FakeCloudDatabase(schema: "Schemas/production.ckdb", environment: .development)
    _ = try await TripSaver(database: database).save(title: "Ridge", tags: ["alpine"])
    return database.cloud.developmentAdditions.map(\.description)
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func theRealDatabaseIsACloudDatabase(_ container: CKDatabase) -> any CloudDatabase { container }
