#!/usr/bin/env python3
"""Hostile record inputs for Benchmarks/hostile/run.sh (issue #11, defect 5).

  generate.py wide N FILE        one record with N fields the schema does not have
  generate.py array MB FILE      a minified one-line JSON array of about MB megabytes
  generate.py ndjson MB FILE     the same records as the array, one a line (the peer)
  generate.py failing N FILE     N records of a type the schema does not have (one error each)
"""
import json
import sys


def record(i):
    return {"recordName": "n%d" % i, "recordType": "Note", "zoneID": {"zoneName": "Notes"},
            "fields": {"title": {"value": "hello %d" % i, "type": "STRING"},
                       "views": {"value": i, "type": "INT64"}}}


def main():
    kind, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, "w") as out:
        if kind == "wide":
            fields = ",".join('"f%d":{"value":"x","type":"STRING"}' % i for i in range(size))
            out.write('{"recordName":"wide","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{%s}}\n' % fields)
        elif kind in ("array", "ndjson"):
            limit, written, i = size << 20, 0, 0
            sep = "," if kind == "array" else "\n"
            if kind == "array":
                out.write("[")
            while written < limit:
                text = json.dumps(record(i), separators=(",", ":"))
                out.write((sep if i else "") + text)
                written += len(text) + 1
                i += 1
            out.write("]" if kind == "array" else "\n")
        elif kind == "failing":
            line = '{"recordName":"r%d","recordType":"Nope","fields":{"title":{"value":"x","type":"STRING"}}}\n'
            out.writelines(line % i for i in range(size))
        else:
            sys.exit("unknown kind " + kind)


main()
