import CloudKit

// Against a .ckdb the fixes are .ckdb lines: what to declare, not YAML keys.
func notes(_ database: CKDatabase, text: String) async throws {
    let all = CKQuery(recordType: "Note", predicate: NSPredicate(value: true))
    all.sortDescriptors = [NSSortDescriptor(key: "body", ascending: true), NSSortDescriptor(key: "creationDate", ascending: false)]
    _ = try await database.records(matching: all)
    let some = CKQuery(recordType: "Note", predicate: NSPredicate(format: "body == %@", text))
    _ = try await database.records(matching: some)
    let sub = CKQuerySubscription(recordType: "Note", predicate: NSPredicate(value: true), subscriptionID: "notes", options: [.firesOnRecordCreation])
    _ = try await database.save(sub)
}
