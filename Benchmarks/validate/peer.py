#!/usr/bin/env python3
"""The peer: what a user would write without ckschema. Parses each NDJSON line with
orjson and validates it with jsonschema-rs against the JSON Schema that
`ckschema export --format jsonschema` writes; prints one line per error, and a count.
usage: peer.py SCHEMA.json RECORDS.ndjson
"""
import sys

import jsonschema_rs
import orjson


def main():
    with open(sys.argv[1], "rb") as f:
        schema = orjson.loads(f.read())
    validator = jsonschema_rs.validator_for(schema)
    out = sys.stdout
    records = errors = 0
    with open(sys.argv[2], "rb") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            records += 1
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError as e:
                errors += 1
                out.write(f"{sys.argv[2]}:{lineno}: error: {e}\n")
                continue
            if not validator.is_valid(record):
                for e in validator.iter_errors(record):
                    errors += 1
                    out.write(f"{sys.argv[2]}:{lineno}: error: {'/'.join(map(str, e.instance_path))}: {e.kind.__class__.__name__}\n")
    out.write(f"{records} records, {errors} errors\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
