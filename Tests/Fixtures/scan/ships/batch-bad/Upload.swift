import CloudKit

final class Upload {
    let database = CKContainer(identifier: "iCloud.com.example.Ships").privateCloudDatabase

    func push(_ records: [CKRecord]) async throws {
        _ = try await database.modifyRecords(saving: records, deleting: [])
    }

    func pushAll(_ records: [CKRecord], _ gone: [CKRecord.ID]) async throws {
        let (saved, _) = try await database.modifyRecords(saving: records, deleting: gone, savePolicy: .changedKeys)
        print("done")
    }

    func pushQuietly(_ records: [CKRecord]) async {
        try? await database.modifyRecords(saving: records, deleting: [])
    }

    func pushOperation(_ records: [CKRecord]) {
        let operation = CKModifyRecordsOperation(recordsToSave: records, recordIDsToDelete: nil)
        operation.modifyRecordsResultBlock = { result in
            if case .success = result { print("saved") }
        }
        database.add(operation)
    }
}
