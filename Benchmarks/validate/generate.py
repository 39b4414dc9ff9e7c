#!/usr/bin/env python3
"""Writes N CloudKit Web Services records (about 500 bytes each) as NDJSON.

Deterministic (fixed seed). A small share of records carry a realistic mistake
(about 1 in 1000) so both validators also exercise their error path.
usage: generate.py N OUT.ndjson
"""
import json
import random
import sys

WORDS = ("alpine ridge lake summit valley forest meadow glacier river canyon trail pass "
         "morning evening storm sunny windy cold warm long short steep gentle rocky").split()


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def b64(rng, n):
    import base64
    return base64.b64encode(bytes(rng.getrandbits(8) for _ in range(n))).decode()


def zone():
    return {"zoneName": "Journal"}


def trip(rng, i):
    start = 1_700_000_000_000 + rng.randrange(10**10)
    return {
        "recordName": f"trip-{i:08d}",
        "recordType": "Trip",
        "zoneID": zone(),
        "fields": {
            "title": {"value": words(rng, 3).title(), "type": "STRING"},
            "startedAt": {"value": start, "type": "TIMESTAMP"},
            "endedAt": {"value": start + rng.randrange(3600_000, 36000_000), "type": "TIMESTAMP"},
            "region": {"value": {"latitude": round(rng.uniform(-89, 89), 6), "longitude": round(rng.uniform(-179, 179), 6)}, "type": "LOCATION"},
            "distanceMeters": {"value": round(rng.uniform(100, 40000), 2), "type": "DOUBLE"},
            "steps": {"value": rng.randrange(100, 60000), "type": "INT64"},
            "notes": {"value": words(rng, 5), "type": "ENCRYPTED_STRING"},
            "tags": {"value": [rng.choice(WORDS) for _ in range(rng.randrange(1, 4))], "type": "STRING_LIST"},
            "checksum": {"value": b64(rng, 12), "type": "BYTES"},
        },
    }


def waypoint(rng, i):
    return {
        "recordName": f"wp-{i:08d}",
        "recordType": "Waypoint",
        "zoneID": zone(),
        "fields": {
            "trip": {"value": {"recordName": f"trip-{rng.randrange(max(i, 1)):08d}", "zoneID": {"zoneName": "Journal"}, "action": "DELETE_SELF"}, "type": "REFERENCE"},
            "position": {"value": {"latitude": round(rng.uniform(-89, 89), 6), "longitude": round(rng.uniform(-179, 179), 6), "altitude": round(rng.uniform(0, 4000), 1)}, "type": "LOCATION"},
            "recordedAt": {"value": 1_700_000_000_000 + rng.randrange(10**10), "type": "TIMESTAMP"},
            "elevation": {"value": round(rng.uniform(0, 4000), 1), "type": "DOUBLE"},
            "heartRates": {"value": [rng.randrange(60, 180) for _ in range(rng.randrange(3, 9))], "type": "INT64_LIST"},
            "note": {"value": words(rng, 3), "type": "ENCRYPTED_STRING"},
            "label": {"value": words(rng, 3), "type": "STRING"},
        },
    }


def companion(rng, i):
    return {
        "recordName": f"co-{i:08d}",
        "recordType": "Companion",
        "zoneID": zone(),
        "fields": {
            "trip": {"value": {"recordName": f"trip-{rng.randrange(max(i, 1)):08d}", "zoneID": {"zoneName": "Journal"}, "action": "DELETE_SELF"}, "type": "REFERENCE"},
            "name": {"value": words(rng, 2).title(), "type": "ENCRYPTED_STRING"},
            "contact": {"value": b64(rng, 32), "type": "ENCRYPTED_BYTES"},
            "age": {"value": rng.randrange(8, 90), "type": "INT64"},
            "joinedAt": {"value": 1_700_000_000_000 + rng.randrange(10**10), "type": "TIMESTAMP"},
        },
    }


def spoil(rng, rec):
    """One realistic mistake: a wrong type, an unknown field, or plaintext for an encrypted field."""
    fields = rec["fields"]
    k = rng.randrange(3)
    if k == 0:
        name = next(iter(fields))
        fields[name] = {"value": "oops", "type": "INT64"}
    elif k == 1:
        fields["mood"] = {"value": "happy", "type": "STRING"}
    else:
        for name, f in fields.items():
            if f["type"].startswith("ENCRYPTED_"):
                f["type"] = f["type"][len("ENCRYPTED_"):]
                break


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(20261130)
    with open(out, "w") as f:
        for i in range(n):
            r = rng.random()
            rec = trip(rng, i) if r < 0.5 else waypoint(rng, i) if r < 0.85 else companion(rng, i)
            if rng.random() < 0.001:
                spoil(rng, rec)
            f.write(json.dumps(rec, separators=(",", ":")))
            f.write("\n")


if __name__ == "__main__":
    main()
