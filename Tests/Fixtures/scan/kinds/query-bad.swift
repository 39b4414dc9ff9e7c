import CloudKit

let rankKey = "rank"

func search(_ database: CKDatabase, text: String) async throws {
    let predicate = NSPredicate(format: "%K > %@ OR secret == %@", rankKey, NSNumber(value: 3), text)
    let query = CKQuery(recordType: "Note", predicate: predicate)
    query.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
    _ = try await database.records(matching: query)
    let byTitle = CKQuery(recordType: "Entry", predicate: NSPredicate(format: "createdOn > 3"))
    _ = try await database.records(matching: byTitle)
}

func local(_ items: [String]) -> [String] {
    (items as NSArray).filtered(using: NSPredicate(format: "SELF BEGINSWITH %@", "x")) as? [String] ?? []
}
