import CloudKit

func legacy() -> CKRecord {
    let record = CKRecord(recordType: "Note")
    record["legacyFlag"] = 1 // ckschema-disable CK901
    return record
}
