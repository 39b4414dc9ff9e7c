#!/usr/bin/env python3
"""The peer: Python's sqlite3 module inserting the same rows into the same table (same
indexes) with executemany in one transaction, reading the same NDJSON file."""
import json, sqlite3, sys, time

store, path = sys.argv[1], sys.argv[2]
now = int(time.time() * 1000)
db = sqlite3.connect(store, isolation_level=None)

def rows():
    with open(path, "rb") as f:
        for i, line in enumerate(f):
            r = json.loads(line)
            fields = {k: v["value"] for k, v in r["fields"].items()}
            yield ("development", r["zoneID"]["zoneName"], r["recordType"], r["recordName"], f"py-{i:x}", now,
                   json.dumps(fields, separators=(",", ":")))

db.execute("BEGIN IMMEDIATE")
db.executemany("INSERT INTO records (env, zone, record_type, record_name, change_tag, created_at, modified_at, fields) "
               "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7) ON CONFLICT (env, zone, record_name) DO NOTHING", rows())
db.execute("COMMIT")
