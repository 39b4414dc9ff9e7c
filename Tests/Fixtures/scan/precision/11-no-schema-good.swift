import CloudKit

// The same calls, as CloudKit takes them: a custom zone, one condition, three desired keys.
func sync(_ database: CKDatabase, token: CKServerChangeToken?) async throws {
    let home = CKRecordZone.ID(zoneName: "Home")
    let record = CKRecord(recordType: "Anything", recordID: CKRecord.ID(recordName: "one", zoneID: home))
    record["whatever"] = "x"
    _ = try await database.save(record)
    let one = CKQuery(recordType: "Anything", predicate: NSPredicate(format: "kind IN %@", ["a", "b"]))
    _ = try await database.records(matching: one)
    _ = try await database.recordZoneChanges(inZoneWith: home, since: token)
    let zone = CKRecordZoneSubscription(zoneID: home, subscriptionID: "everything")
    _ = try await database.save(zone)
    let sub = CKQuerySubscription(recordType: "Anything", predicate: NSPredicate(value: true), subscriptionID: "new-things", options: [.firesOnRecordCreation])
    let info = CKSubscription.NotificationInfo()
    info.desiredKeys = ["a", "b", "c"]
    sub.notificationInfo = info
    _ = try await database.save(sub)
    _ = try await database.deleteRecordZone(withID: home)
}
