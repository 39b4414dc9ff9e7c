#!/usr/bin/env python3
"""A large schema for the codegen benchmark: TYPES record types (default 2,000) of FIELDS
fields (default 20), every field type and index combination, one custom zone, a declared
query and a subscription every 50 types. Deterministic: the same arguments give the same file."""
import sys

types = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
fields = int(sys.argv[2]) if len(sys.argv) > 2 else 20
kinds = [
    "{ type: string, indexes: [queryable, searchable, sortable] }",
    "{ type: timestamp, indexes: [queryable, sortable] }",
    "{ type: int64, indexes: [queryable] }",
    "{ type: double, indexes: [sortable] }",
    "string",
    "{ type: string, encrypted: true }",
    "{ type: list<string>, indexes: [queryable] }",
    "{ type: reference, indexes: [queryable] }",
    "{ type: location, indexes: [queryable] }",
    "asset",
    "bytes",
    "list<int64>",
]
out = ["ckschema: 1", "container: iCloud.com.example.Bench", "zones:",
       "  Journal: { database: private, capabilities: [fetchChanges, atomic] }", "recordTypes:"]
for t in range(types):
    out.append(f"  Type{t}:")
    if t % 2 == 0:
        out.append("    zone: Journal")
    out.append("    system:")
    out.append("      recordName: [queryable]")
    out.append("    fields:")
    for f in range(fields):
        out.append(f"      field{f}: {kinds[(t + f) % len(kinds)]}")
out.append("queries:")
for t in range(0, types, 50):
    out.append(f"  - {{ name: recent{t}, recordType: Type{t}, filter: [field{(1 - t) % len(kinds)}] }}")
    out.append(f"  - {{ name: all{t}, recordType: Type{t} }}")
out.append("subscriptions:")
for t in range(0, types, 50):
    out.append(f"  sub-{t}: {{ type: query, database: private, recordType: Type{t}, firesOn: [create] }}")
print("\n".join(out))
