#!/usr/bin/env python3
"""Writes a CloudKit-dense generated app (issue 36, point 4): N Swift files (default 400) of
F functions each (default 40), and every function saves a record (three fields, one
encrypted, in a custom zone), queries with a `%@` predicate and a sort, and saves a query
subscription; nothing else (no padding), so the scan's own work per byte is measured.

    generate_dense.py OUT_DIR [FILES] [FUNCTIONS]

The schema is written to OUT_DIR/../schema.yaml, as generate.py does."""
import os, sys
out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/ckschema-scan-dense/App"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
fns = int(sys.argv[3]) if len(sys.argv) > 3 else 40
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "..", "schema.yaml"), "w") as f:
    f.write("""ckschema: 1
zones:
  Journal: { capabilities: [fetchChanges] }
recordTypes:
  Entry:
    zone: Journal
    system:
      recordName: [queryable]
    fields:
      title: { type: string, indexes: [queryable, sortable] }
      body: { type: string, encrypted: true }
      rank: { type: int64, indexes: [queryable, sortable] }
""")
for i in range(n):
    body = "".join(f"""
    func sync{k}(_ title: String, _ body: String) async throws {{
        let id = CKRecord.ID(recordName: "e{i}-{k}", zoneID: Self.zoneID)
        let record = CKRecord(recordType: "Entry", recordID: id)
        record[Field{i}.title.rawValue] = title
        record.encryptedValues[Field{i}.body.rawValue] = body
        record["rank"] = {k}
        _ = try await database.save(record)
        let query = CKQuery(recordType: "Entry", predicate: NSPredicate(format: "rank > %@", NSNumber(value: {k})))
        query.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        _ = try await database.records(matching: query)
        let subscription = CKQuerySubscription(recordType: "Entry", predicate: NSPredicate(format: "rank > {k}"), subscriptionID: "s{i}-{k}", options: [.firesOnRecordCreation])
        _ = try await database.save(subscription)
    }}
""" for k in range(fns))
    src = f"""import CloudKit

enum Field{i}: String {{ case title, body, rank }}

final class Store{i} {{
    static let zoneID = CKRecordZone.ID(zoneName: "Journal")
    let database = CKContainer.default().privateCloudDatabase
{body}}}
"""
    d = os.path.join(out, f"Module{i // 100}")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"Store{i}.swift"), "w") as f:
        f.write(src)
