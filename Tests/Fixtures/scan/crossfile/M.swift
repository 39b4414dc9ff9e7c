import CloudKit

enum Other {
    static let shared = "sharedInM"
}

enum OtherField: String {
    case tag = "labels"
}

func renameNote(_ record: CKRecord, _ text: String) {
    let note = CKRecord(recordType: Names.note)
    note[Keys.text] = text
}
