import CloudKit

func sync(_ database: CKDatabase, initial: Bool) {
    let zoneID: CKRecordZone.ID
    if initial {
        zoneID = CKRecordZone.ID(zoneName: "Journal")
    } else {
        zoneID = CKRecordZone.default().zoneID
    }
    let operation = CKFetchRecordZoneChangesOperation(recordZoneIDs: [zoneID], configurationsByRecordZoneID: nil)
    database.add(operation)
    let subscription = CKRecordZoneSubscription(zoneID: CKRecordZone.ID.default, subscriptionID: "changes")
    database.save(subscription) { _, _ in }
}
