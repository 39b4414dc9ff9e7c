import CloudKit

struct DefaultStore {
    let zoneID = CKRecordZone.default().zoneID

    func subscribe() -> CKRecordZoneSubscription {
        CKRecordZoneSubscription(zoneID: zoneID, subscriptionID: "owner")
    }
}
