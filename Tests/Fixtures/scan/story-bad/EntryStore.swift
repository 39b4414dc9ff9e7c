import CloudKit

/// The default-zone story: lists every entry, sorts by an encrypted field, fetches zone
/// changes from the default zone and deletes the default zone on a keychain reset.
final class EntryStore {
    let database = CKContainer.default().privateCloudDatabase

    func save(title: String, body: String) async throws {
        let record = CKRecord(recordType: "Entry")
        record["title"] = title
        record.encryptedValues["body"] = body
        _ = try await database.save(record)
    }

    func all() async throws -> [CKRecord.ID] {
        let query = CKQuery(recordType: "Entry", predicate: NSPredicate(value: true))
        query.sortDescriptors = [NSSortDescriptor(key: "body", ascending: true)]
        let (results, _) = try await database.records(matching: query)
        return results.map(\.0)
    }

    func changes() async throws {
        _ = try await database.recordZoneChanges(inZoneWith: CKRecordZone.default().zoneID, since: nil)
    }

    func resetAfterKeychainChange() async throws {
        try await database.deleteRecordZone(withID: CKRecordZone.ID.default)
    }
}
