import CloudKit

func reset(_ database: CKDatabase) async throws {
    _ = try await database.modifyRecordZones(saving: [], deleting: [CKRecordZone.ID(zoneName: "Journal")])
    let operation = CKModifyRecordZonesOperation(recordZonesToSave: nil, recordZoneIDsToDelete: [CKRecordZone.ID(zoneName: "Journal")])
    database.add(operation)
}
