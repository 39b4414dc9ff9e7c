import CloudKit

func recent(_ database: CKDatabase) async throws {
    let trips = CKQuery(recordType: "Trip", predicate: NSPredicate(value: true))
    trips.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
    _ = try await database.records(matching: trips)
    let places = CKQuery(recordType: "Place", predicate: NSPredicate(value: true))
    places.sortDescriptors = [NSSortDescriptor(key: "createdAt", ascending: false)]
    _ = try await CKContainer.default().publicCloudDatabase.records(matching: places)
}
