import CloudKit

/// Flags only their creator may read, queried in the public database: CloudKit filters the
/// query by creator, and Flag's createdBy is not queryable.
func myFlags() async throws {
    let database = CKContainer.default().publicCloudDatabase
    let query = CKQuery(recordType: "Flag", predicate: NSPredicate(format: "reason == %@", "spam"))
    _ = try await database.records(matching: query)
}
