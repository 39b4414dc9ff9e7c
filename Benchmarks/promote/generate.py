#!/usr/bin/env python3
"""Writes a pair of ckschema YAML schemas for the promote benchmark.

usage: generate.py N OUT_DIR [--changed PERCENT]

production.yaml has N record types of 10 fields each (mixed types and indexes, one
custom zone, grants, one declared query per 10 types). development.yaml is the same
schema with PERCENT (default 1) of the fields changed, spread evenly over the types and
cycling through: a new field (safe), an added index (review), a removed index (review),
a deprecation (safe), a retype (forbidden), a deletion (forbidden). Deterministic.
"""
import os
import sys

TYPES = ["string", "int64", "double", "timestamp", "bytes", "location", "list<string>", "reference", "asset", "string"]
INDEXES = {
    "string": "[queryable, searchable, sortable]", "int64": "[queryable, sortable]", "double": "[sortable]",
    "timestamp": "[queryable, sortable]", "location": "[queryable]", "list<string>": "[queryable]", "reference": "[queryable]",
}


def fields_of(t, n):
    out = []
    for j, ftype in enumerate(TYPES):
        idx = INDEXES.get(ftype) if j % 3 != 2 else None
        out.append({"name": f"f{j}", "type": ftype, "indexes": idx, "deprecated": False, "target": f"T{(t + 1) % n}" if ftype == "reference" else None})
    return out


def emit(n, changes, path):
    lines = ["ckschema: 1", "container: iCloud.com.example.Bench", "zones:", "  Main: { database: private, capabilities: [fetchChanges, atomic] }", "recordTypes:"]
    for t in range(n):
        fields = fields_of(t, n)
        for (ct, kind, j) in changes.get(t, []):
            f = fields[j]
            if kind == "add":
                fields.append({"name": f"added{j}", "type": "string", "indexes": "[queryable]", "deprecated": False, "target": None})
            elif kind == "addIndex":
                f["indexes"] = "[sortable]"
            elif kind == "removeIndex":
                f["indexes"] = None
            elif kind == "deprecate":
                f["deprecated"] = True
            elif kind == "retype":
                f["type"] = "double" if f["type"] != "double" else "int64"
                f["indexes"] = None
            elif kind == "delete":
                f["delete"] = True
        lines.append(f"  T{t}:")
        if t % 2 == 0:
            lines.append("    zone: Main")
        lines.append("    system:")
        lines.append("      recordName: [queryable]")
        lines.append("    fields:")
        for f in fields:
            if f.get("delete"):
                continue
            parts = [f"type: {f['type']}"]
            if f["target"]:
                parts.append(f"to: {f['target']}")
            if f["indexes"]:
                parts.append(f"indexes: {f['indexes']}")
            if f["deprecated"]:
                parts.append("deprecated: true")
            lines.append(f"      {f['name']}: {{ " + ", ".join(parts) + " }")
        lines.append("    grants:")
        lines.append("      _world: [read]")
        lines.append("      _creator: [read, write]")
    lines.append("queries:")
    for t in range(0, n, 10):
        lines.append(f"  - {{ recordType: T{t}, filter: [f0], sort: [f1] }}")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    n, out = int(args[0]), args[1]
    percent = float(args[args.index("--changed") + 1]) if "--changed" in args else 1.0
    os.makedirs(out, exist_ok=True)
    total = n * len(TYPES)
    count = max(1, round(total * percent / 100))
    kinds = ["add", "addIndex", "removeIndex", "deprecate", "retype", "delete"]
    # Fields that suit each kind and that no declared query (filter f0, sort f1) needs:
    # addIndex on the unindexed double f2, removeIndex on the list f6, deprecate the
    # reference f7, retype the string f9, delete the bytes f4.
    field_for = {"add": 0, "addIndex": 2, "removeIndex": 6, "deprecate": 7, "retype": 9, "delete": 4}
    changes = {}
    step = max(1, n // count) if count <= n else 1
    for i in range(count):
        t = (i * step) % n if count <= n else i % n
        kind = kinds[i % len(kinds)]
        changes.setdefault(t, []).append((t, kind, field_for[kind]))
    emit(n, {}, os.path.join(out, "production.yaml"))
    emit(n, changes, os.path.join(out, "development.yaml"))
    print(f"{n} record types, {total} fields, {count} changed -> {out}")


if __name__ == "__main__":
    main()
