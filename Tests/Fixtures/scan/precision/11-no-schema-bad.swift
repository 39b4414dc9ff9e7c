import CloudKit

// Scanned without a schema: what CloudKit refuses whatever the schema holds is still found;
// record types and fields ('Anything', 'whatever') are not checked.
func sync(_ database: CKDatabase, token: CKServerChangeToken?) async throws {
    let record = CKRecord(recordType: "Anything")
    record["whatever"] = "x"
    _ = try await database.save(record)
    let either = CKQuery(recordType: "Anything", predicate: NSPredicate(format: "kind == 'a' OR kind == 'b'"))
    _ = try await database.records(matching: either)
    _ = try await database.recordZoneChanges(inZoneWith: CKRecordZone.ID.default, since: token)
    let zone = CKRecordZoneSubscription(zoneID: .default, subscriptionID: "everything")
    _ = try await database.save(zone)
    let sub = CKQuerySubscription(recordType: "Anything", predicate: NSPredicate(value: true), subscriptionID: "new-things", options: [.firesOnRecordCreation])
    let info = CKSubscription.NotificationInfo()
    info.desiredKeys = ["a", "b", "c", "d"]
    sub.notificationInfo = info
    _ = try await database.save(sub)
    _ = try await database.deleteRecordZone(withID: CKRecordZone.default().zoneID)
}
