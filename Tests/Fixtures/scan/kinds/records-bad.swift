import CloudKit

enum RecordTypes {
    static let note = "Notes"
}

func saveNote(_ text: String) -> CKRecord {
    let record = CKRecord(recordType: RecordTypes.note)
    record["text"] = text
    return record
}

func editNote(_ text: String) -> CKRecord {
    let record = CKRecord(recordType: "Note")
    record["txt"] = text
    record.setValue(3, forKey: "ranking")
    return record
}
