import CloudKit

enum NoteField: String {
    case text, secret
}

func fill(_ text: String, _ secret: String) -> CKRecord {
    let record = CKRecord(recordType: "Note")
    record[NoteField.secret.rawValue] = secret
    record.encryptedValues[NoteField.text.rawValue] = text
    return record
}
