// A `#!` anywhere but the very start of the file is not an interpreter line: Swift refuses it.
#!/usr/bin/env swift
import CloudKit

func titles(_ database: CKDatabase) async throws {
    let query = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "title == %@", "Lisbon"))
    _ = try await database.records(matching: query)
}
