#!/usr/bin/env swift
import CloudKit

// A script (`swift FILE`) begins with its interpreter line, which Swift accepts there:
// the scan reads the script as any other file (robbiet480/Dispatch's scripts/*.swift).
func titles(_ database: CKDatabase) async throws {
    let query = CKQuery(recordType: "Trip", predicate: NSPredicate(format: "title == %@", "Lisbon"))
    _ = try await database.records(matching: query)
}
