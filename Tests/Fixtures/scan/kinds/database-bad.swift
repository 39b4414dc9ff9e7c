import CloudKit

func publicNotes() async throws {
    let database = CKContainer.default().publicCloudDatabase
    let query = CKQuery(recordType: "Note", predicate: NSPredicate(format: "rank > 2"))
    _ = try await database.records(matching: query)
}
