import CloudKit

// CloudKit's keys name the system fields; 'Place' has a custom field 'createdAt'.
func recent(_ database: CKDatabase, since: Date) async throws {
    let trips = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "creationDate > %@", since as NSDate))
    _ = try await database.records(matching: trips)
    let changed = NSPredicate(format: "modificationDate > %@", since as NSDate)
    let sub = CKQuerySubscription(recordType: "Trip", predicate: changed, subscriptionID: "changed-trips", options: [.firesOnRecordUpdate])
    _ = try await database.save(sub)
    let places = CKQuery(recordType: "Place", predicate: NSPredicate(format: "createdAt > %@", since as NSDate))
    _ = try await database.records(matching: places)
}
