import CloudKit

enum Store {
    static let container = CKContainer(identifier: "iCloud.com.example.Ships")

    static func entry() -> CKRecord {
        CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: "a", zoneID: CKRecordZone.ID(zoneName: "Journal")))
    }
}
