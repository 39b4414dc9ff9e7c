import CloudKit

func reset(_ database: CKDatabase) async throws {
    _ = try await database.modifyRecordZones(saving: [], deleting: [CKRecordZone.default().zoneID])
    let operation = CKModifyRecordZonesOperation(recordZonesToSave: nil, recordZoneIDsToDelete: [.default])
    database.add(operation)
}
