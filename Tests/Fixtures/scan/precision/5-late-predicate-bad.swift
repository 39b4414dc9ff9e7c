import CloudKit

func search(_ database: CKDatabase, text: String?) async throws {
    let predicate: NSPredicate
    if let text {
        predicate = NSPredicate(format: "notes == %@", text)
    } else {
        predicate = NSPredicate(format: "rank > 3")
    }
    let query = CKQuery(recordType: "Trip", predicate: predicate)
    _ = try await database.records(matching: query)
    var byPlace = NSPredicate(value: true)
    if text != nil {
        byPlace = NSPredicate(format: "name BEGINSWITH %@ OR rank == 1", text!)
    }
    let places = CKQuery(recordType: "Place", predicate: byPlace)
    _ = try await database.records(matching: places)
}

func watch(_ database: CKDatabase, mine: Bool) async throws {
    let predicate: NSPredicate
    if mine {
        predicate = NSPredicate(format: "title == %@", "mine")
    } else {
        predicate = NSPredicate(format: "rank == 1")
    }
    let subscription = CKQuerySubscription(recordType: "Trip", predicate: predicate, subscriptionID: "trips", options: [.firesOnRecordCreation])
    _ = try await database.save(subscription)
}
