#!/usr/bin/env bash
# Issue 14's speed figures:
#  1. `ckschema query` with an indexed predicate over 1,000,000 records (target: under 50 ms),
#     beside the sqlite3 shell running the same SELECT, and the same filter without an index (a scan);
#  2. `records import` of 200,000 records with two query subscriptions against the same import
#     with none (target: within 1.3x).
# Usage: bash Benchmarks/runtime/run.sh [QUERY_N] [IMPORT_N]   (figures go to Benchmarks/RESULTS.md by hand)
set -euo pipefail
cd "$(dirname "$0")/../.."
QN=${1:-1000000}
IN=${2:-200000}
W=Benchmarks/work/runtime
mkdir -p "$W"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3; }
swift build -c release --product ckschema >/dev/null
BIN=$(swift build -c release --show-bin-path)/ckschema

for m in migrations subscriptions; do
  rm -rf "$W/$m" && cp -r "Benchmarks/runtime/$m" "$W/$m"
  "$BIN" migrate hash --migrations "$W/$m" >/dev/null
done

# 1. A store with the Item type (title queryable+sortable, count queryable) and QN records,
#    written by the sqlite3 shell (the import itself is measured in Benchmarks/store).
if [ ! -f "$W/query-$QN.sqlite" ]; then
  rm -f "$W/q.sqlite" && "$BIN" migrate apply --store "$W/q.sqlite" --migrations "$W/migrations" >/dev/null
  sqlite3 "$W/q.sqlite" "PRAGMA cache_size=-65536; BEGIN;
    WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < $QN - 1)
    INSERT INTO records (env, zone, record_type, record_name, change_tag, created_at, modified_at, fields)
    SELECT 'development', 'Items', 'Item', printf('item-%07d', i), 't', 0, 0,
           json_object('title', 'title ' || i, 'count', (i * 7919) % 10000, 'price', 1.5, 'tags', json_array('a', 'b'))
    FROM c; COMMIT;"
  mv "$W/q.sqlite" "$W/query-$QN.sqlite"
fi
Q="$W/query-$QN.sqlite"
echo "records: $(sqlite3 "$Q" 'select count(*) from records')"
SQL="SELECT id, record_type, record_name, zone, change_tag, created_at, modified_at, fields FROM records WHERE env = 'development' AND record_type = 'Item' AND zone = 'Items' AND json_extract(fields, '\$.count') = 4242 ORDER BY id"
echo "== query plan: $("$BIN" --version)"
sqlite3 "$Q" "EXPLAIN QUERY PLAN $SQL"
hyperfine --warmup 2 --runs 10 --export-markdown "$W/query.md" \
  -n "ckschema query (count == 4242, indexed)" "$BIN query Item --predicate 'count == 4242' --store $Q" \
  -n "ckschema query (title BEGINSWITH 'title 99999', indexed)" "$BIN query Item --predicate \"title BEGINSWITH 'title 99999'\" --store $Q" \
  -n "sqlite3 shell, same SELECT" "sqlite3 $Q \"$SQL\"" \
  -n "sqlite3 shell, same filter as a scan (NOT INDEXED)" "sqlite3 $Q \"$(echo "$SQL" | sed 's/FROM records/FROM records NOT INDEXED/')\""
echo "rows: $("$BIN" query Item --predicate 'count == 4242' --store "$Q" | wc -l)"

# 2. records import of IN records, with and without two query subscriptions.
[ -f "$W/records-$IN.ndjson" ] || python3 Benchmarks/store/gen.py "$IN" > "$W/records-$IN.ndjson"
rm -f "$W/none.sqlite" "$W/subs.sqlite"
"$BIN" migrate apply --store "$W/none.sqlite" --migrations "$W/migrations" >/dev/null
"$BIN" migrate apply --store "$W/subs.sqlite" --migrations "$W/subscriptions" >/dev/null
hyperfine --runs 5 --export-markdown "$W/import.md" \
  --prepare "cp $W/none.sqlite $W/a.sqlite" \
  -n "records import, no subscriptions" "$BIN records import --env development --store $W/a.sqlite $W/records-$IN.ndjson" \
  --prepare "cp $W/subs.sqlite $W/b.sqlite" \
  -n "records import, two query subscriptions" "$BIN records import --env development --store $W/b.sqlite $W/records-$IN.ndjson"
echo "notifications: $(sqlite3 $W/b.sqlite 'select count(*) from notifications')"
