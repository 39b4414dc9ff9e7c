import CloudKit

/// Public trails, found by name in the public database.
struct TrailSearch {
    let database = CKContainer(identifier: "iCloud.com.example.Trailmark").publicCloudDatabase

    func find(_ text: String) async throws -> [CKRecord] {
        let query = CKQuery(recordType: "PublicTrail", predicate: NSPredicate(format: "self CONTAINS %@", text))
        query.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let (matches, _) = try await database.records(matching: query)
        return matches.compactMap { try? $0.1.get() }
    }
}
