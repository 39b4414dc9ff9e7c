import CloudKit

func list(_ database: CKDatabase) async throws {
    let query = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "title == %@", "x"))
    query.sortDescriptors = [
        NSSortDescriptor(key: "title", ascending: true),
        NSSortDescriptor(key: "notes", ascending: true),
    ]
    _ = try await database.records(matching: query)
}
