import CloudKit

func privateNotes() async throws {
    let database = CKContainer.default().database(with: .private)
    let query = CKQuery(recordType: "Note", predicate: NSPredicate(format: "rank > 2"))
    _ = try await database.records(matching: query)
}
