import CloudKit

// Every name here is declared in a file read after this one (Z.swift), or in two files
// that disagree (M.swift and Z.swift): the scan resolves the first and stays silent on the second.
func saveNote(_ text: String) async throws {
    let record = CKRecord(recordType: Names.note)
    record[Keys.text] = text
    record[NoteField.ranking.rawValue] = 3
    record[Keys.shared] = text
    record[NoteField.tag.rawValue] = text
    record.encryptedValues[NoteField.secret.rawValue] = text
    _ = try await CKContainer.default().privateCloudDatabase.save(record)
}
