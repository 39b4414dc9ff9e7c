import CloudKit

final class Upload {
    let database = CKContainer(identifier: "iCloud.com.example.Ships").privateCloudDatabase

    func push(_ records: [CKRecord]) async throws {
        let (saved, _) = try await database.modifyRecords(saving: records, deleting: [])
        for (id, result) in saved {
            if case .failure(let error) = result { print(id, error) }
        }
    }

    func pushAll(_ records: [CKRecord], _ gone: [CKRecord.ID]) async throws -> [CKRecord.ID: Result<CKRecord, Error>] {
        return try await database.modifyRecords(saving: records, deleting: gone, savePolicy: .changedKeys).saveResults
    }

    func pushOperation(_ records: [CKRecord]) {
        let operation = CKModifyRecordsOperation(recordsToSave: records, recordIDsToDelete: nil)
        operation.perRecordSaveBlock = { id, result in
            if case .failure(let error) = result { print(id, error) }
        }
        operation.modifyRecordsResultBlock = { result in
            if case .success = result { print("saved") }
        }
        database.add(operation)
    }
}
