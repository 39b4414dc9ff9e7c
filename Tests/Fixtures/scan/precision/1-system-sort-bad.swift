import CloudKit

func recent(_ database: CKDatabase) async throws {
    let trips = CKQuery(recordType: "Trip", predicate: NSPredicate(value: true))
    trips.sortDescriptors = [NSSortDescriptor(key: "modificationDate", ascending: false), NSSortDescriptor(key: "createdAt", ascending: false)]
    _ = try await database.records(matching: trips)
}
