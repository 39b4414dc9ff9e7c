import CloudKit

func sync(_ database: CKDatabase, initial: Bool) {
    let zoneID: CKRecordZone.ID
    if initial {
        zoneID = CKRecordZone.ID(zoneName: "Journal")
    } else {
        zoneID = CKRecordZone.ID(zoneName: "Journal", ownerName: CKCurrentUserDefaultName)
    }
    let operation = CKFetchRecordZoneChangesOperation(recordZoneIDs: [zoneID], configurationsByRecordZoneID: nil)
    database.add(operation)
    let subscription = CKRecordZoneSubscription(zoneID: zoneID, subscriptionID: "changes")
    database.save(subscription) { _, _ in }
}
