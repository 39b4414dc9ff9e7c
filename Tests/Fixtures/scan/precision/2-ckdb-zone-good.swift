import CloudKit

let zoneID = CKRecordZone.ID(zoneName: "Trips")

func watch() async throws {
    let subscription = CKRecordZoneSubscription(zoneID: zoneID, subscriptionID: "trips")
    _ = try await CKContainer.default().privateCloudDatabase.save(subscription)
    let record = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "a", zoneID: zoneID))
    record["title"] = "x"
}
