import CloudKit

func legacy() -> CKRecord {
    let record = CKRecord(recordType: "Note")
    record["legacyFlag"] = 1 // ckschema-disable CK901: written only by the 1.0 build, which development still serves
    return record
}
