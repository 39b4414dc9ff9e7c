import CloudKit

/// Reports only their creator may read, queried in the public database: Report's createdBy is
/// queryable, so CloudKit's filter by creator can run.
func myReports() async throws {
    let database = CKContainer.default().publicCloudDatabase
    let query = CKQuery(recordType: "Report", predicate: NSPredicate(format: "reason == %@", "spam"))
    _ = try await database.records(matching: query)
}
