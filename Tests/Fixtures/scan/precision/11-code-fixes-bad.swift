import CloudKit

// Against a .ckdb, the fixes of what the code saves and queries say what to change in the
// code, or the .ckdb line to declare: a .ckdb has no 'zone:', 'recordType:' or 'firesOn:'.
func watch(_ container: CKContainer, text: String) async throws {
    let database = container.privateCloudDatabase
    let changes = CKRecordZoneSubscription(zoneID: CKRecordZone.ID.default, subscriptionID: "changes")
    _ = try await database.save(changes)
    let silent = CKQuerySubscription(recordType: "Trip", predicate: NSPredicate(value: true), subscriptionID: "silent", options: [])
    _ = try await database.save(silent)
    let typo = CKQuerySubscription(recordType: "Trp", predicate: NSPredicate(value: true), subscriptionID: "typo", options: [.firesOnRecordCreation])
    _ = try await database.save(typo)
    let words = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "self CONTAINS %@", text))
    _ = try await database.records(matching: words)
    let flags = CKQuery(recordType: "Flag", predicate: NSPredicate(format: "reason == %@", text))
    _ = try await container.publicCloudDatabase.records(matching: flags)
}
