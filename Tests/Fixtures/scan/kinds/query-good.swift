import CloudKit

let rankKey = "rank"

func search(_ database: CKDatabase, text: String) async throws {
    let predicate = NSPredicate(format: "%K > %@ AND text BEGINSWITH %@", rankKey, NSNumber(value: 3), text)
    let query = CKQuery(recordType: "Note", predicate: predicate)
    query.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
    _ = try await database.records(matching: query)
    let byTitle = CKQuery(recordType: "Entry", predicate: NSPredicate(format: "mood > 3"))
    _ = try await database.records(matching: byTitle)
}

func local(_ items: [String]) -> [String] {
    (items as NSArray).filtered(using: NSPredicate(format: "SELF BEGINSWITH %@", "x")) as? [String] ?? []
}
