import CloudKit

enum NoteField: String {
    case text, secret
}

func fill(_ text: String, _ secret: String) -> CKRecord {
    let record = CKRecord(recordType: "Note")
    record.encryptedValues[NoteField.secret.rawValue] = secret
    record[NoteField.text.rawValue] = text
    return record
}
