import CloudKit

func newEntry() -> CKRecord {
    let id = CKRecord.ID(recordName: UUID().uuidString)
    return CKRecord(recordType: "Entry", recordID: id)
}

func newNote() -> CKRecord {
    let zone = CKRecordZone.ID(zoneName: "Journal")
    return CKRecord(recordType: "Note", zoneID: zone)
}
