// The pattern for the app's own tests (docs/testing.md): the code under test takes any
// `CloudDatabase`; the app passes CKContainer's database, the test a `FakeCloudDatabase` over
// the production schema, which refuses what production refuses. It builds in the app's test
// target on Apple platforms (CKSchemaTesting's adapter needs CloudKit).
import CloudKit
import CKSchemaTesting
import Testing

/// The app's code: it writes a trip through whatever database it is given.
@available(macOS 13.0, iOS 16.0, *)
struct TripWriter {
    let database: any CloudDatabase

    func save(title: String, notes: String, meters: Double) async throws -> CKRecord {
        let zoneID = CKRecordZone.ID(zoneName: "Journal")
        _ = try await database.modifyRecordZones(saving: [CKRecordZone(zoneID: zoneID)], deleting: [])
        let trip = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: UUID().uuidString, zoneID: zoneID))
        trip["title"] = title
        trip["startedAt"] = Date()
        trip["distanceMeters"] = meters
        trip.encryptedValues["notes"] = notes
        let (saved, _) = try await database.modifyRecords(saving: [trip], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
        return try saved[trip.recordID]!.get()
    }
}

@available(macOS 13.0, iOS 16.0, *)
@Test func aTripSavesAgainstProduction() async throws {
    let database = try FakeCloudDatabase(schema: "Schemas/production.yaml", environment: .production)
    let saved = try await TripWriter(database: database).save(title: "Ridge", notes: "windy", meters: 12_000)
    #expect(saved.recordChangeTag != nil)
    // Saved again from the stale copy after another device changed it: CloudKit's conflict.
    let other = try await database.record(for: saved.recordID)
    other["title"] = "Ridge (other device)"
    let (first, _) = try await database.modifyRecords(saving: [other], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
    #expect((try first[other.recordID]?.get()) != nil)
    saved["title"] = "Ridge (this device)"
    let (results, _) = try await database.modifyRecords(saving: [saved], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
    #expect((results[saved.recordID].flatMap { if case .failure(let e) = $0 { e as? CKError } else { nil } })?.code == .serverRecordChanged)
}
