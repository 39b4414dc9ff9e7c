import CloudKit

// The same calls, fixed in the code: a custom zone, an event to fire on, the type's name, a
// prefix match on a queryable field, the creator-only type read from the private database.
func watch(_ container: CKContainer, text: String) async throws {
    let database = container.privateCloudDatabase
    let changes = CKRecordZoneSubscription(zoneID: CKRecordZone.ID(zoneName: "Trips"), subscriptionID: "changes")
    _ = try await database.save(changes)
    let silent = CKQuerySubscription(recordType: "Trip", predicate: NSPredicate(value: true), subscriptionID: "silent", options: [.firesOnRecordUpdate])
    _ = try await database.save(silent)
    let typo = CKQuerySubscription(recordType: "Trip", predicate: NSPredicate(value: true), subscriptionID: "typo", options: [.firesOnRecordCreation])
    _ = try await database.save(typo)
    let words = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "title BEGINSWITH %@", text))
    _ = try await database.records(matching: words)
    let flags = CKQuery(recordType: "Flag", predicate: NSPredicate(format: "reason == %@", text))
    _ = try await database.records(matching: flags)
}
