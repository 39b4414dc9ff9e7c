#!/usr/bin/env python3
"""Writes a generated app of N Swift files (default 8,000, about 16 MB) under OUT: each file
saves records, queries with a predicate and a sort, and saves a subscription, padded with
ordinary Swift (a view model with computed properties) to about 2 KB a file."""
import os, sys
out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ckschema-scan-bench/App"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "..", "schema.yaml"), "w") as f:
    f.write("""ckschema: 1
zones:
  Journal: { capabilities: [fetchChanges] }
recordTypes:
  Entry:
    zone: Journal
    fields:
      title: { type: string, indexes: [queryable, sortable] }
      body: { type: string, encrypted: true }
      rank: { type: int64, indexes: [queryable, sortable] }
""")
for i in range(n):
    pad = "".join(f"""
    var label{k}: String {{ items.isEmpty ? "none" : "\\(items.count) items, page {k}" }}
    func step{k}(_ x: Int) -> Int {{ let y = x * {k} + 1; return y > 100 ? y / 2 : y + {k} }}
""" for k in range(6))
    src = f"""import CloudKit

enum Field{i}: String {{ case title, body, rank }}

final class Store{i} {{
    static let zoneID = CKRecordZone.ID(zoneName: "Journal")
    let database = CKContainer.default().privateCloudDatabase
    var items: [String] = []

    func save(_ title: String, _ body: String) async throws {{
        let id = CKRecord.ID(recordName: UUID().uuidString, zoneID: Self.zoneID)
        let record = CKRecord(recordType: "Entry", recordID: id)
        record[Field{i}.title.rawValue] = title
        record.encryptedValues[Field{i}.body.rawValue] = body
        record["rank"] = {i}
        _ = try await database.save(record)
    }}

    func top() async throws {{
        let query = CKQuery(recordType: "Entry", predicate: NSPredicate(format: "rank > %@", NSNumber(value: {i})))
        query.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        _ = try await database.records(matching: query)
    }}

    func subscribe() async throws {{
        let subscription = CKQuerySubscription(recordType: "Entry", predicate: NSPredicate(format: "rank > 3"), subscriptionID: "s{i}", options: [.firesOnRecordCreation])
        _ = try await database.save(subscription)
    }}
{pad}}}
"""
    d = os.path.join(out, f"Module{i // 500}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"Store{i}.swift"), "w") as f:
        f.write(src)
