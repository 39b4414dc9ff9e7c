import CloudKit

// YAML's names for the system fields are no CloudKit keys: here they name custom fields
// that 'Trip' does not have.
func recent(_ database: CKDatabase, since: Date) async throws {
    let trips = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "createdAt > %@", since as NSDate))
    _ = try await database.records(matching: trips)
    let changed = NSPredicate(format: "modifiedAt > %@", since as NSDate)
    let sub = CKQuerySubscription(recordType: "Trip", predicate: changed, subscriptionID: "changed-trips", options: [.firesOnRecordUpdate])
    _ = try await database.save(sub)
}
