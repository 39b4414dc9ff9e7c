import CloudKit

protocol ZoneOwner {
    var zoneID: CKRecordZone.ID { get }
}

extension ZoneOwner {
    func subscribe() -> CKRecordZoneSubscription {
        CKRecordZoneSubscription(zoneID: zoneID, subscriptionID: "owner")
    }
}

struct DefaultStore {
    let zoneID = CKRecordZone.default().zoneID

    func save() async throws {
        let record = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "a", zoneID: zoneID))
        _ = try await CKContainer.default().privateCloudDatabase.save(record)
    }
}
