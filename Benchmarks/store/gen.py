#!/usr/bin/env python3
"""Writes N records of the benchmark's Item type as NDJSON in the CloudKit Web Services shape."""
import json, random, sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rnd = random.Random(42)
words = ["alpine", "ridge", "forest", "lake", "summit", "valley", "river", "meadow", "canyon", "trail"]
out = sys.stdout
for i in range(n):
    rec = {
        "recordName": f"item-{i:07d}",
        "recordType": "Item",
        "zoneID": {"zoneName": "Items"},
        "fields": {
            "title": {"value": f"{rnd.choice(words)} {rnd.choice(words)} {i}", "type": "STRING"},
            "count": {"value": rnd.randrange(0, 10_000), "type": "INT64"},
            "price": {"value": round(rnd.uniform(0, 500), 2), "type": "DOUBLE"},
            "createdOn": {"value": 1_700_000_000_000 + i * 1000, "type": "TIMESTAMP"},
            "tags": {"value": [rnd.choice(words), rnd.choice(words)], "type": "STRING_LIST"},
        },
    }
    out.write(json.dumps(rec, separators=(",", ":")) + "\n")
