#!/usr/bin/env bash
# The store benchmark: `records import` of 1,000,000 records against Python's sqlite3
# executemany, and a backfill migration against the sqlite3 shell's equivalent UPDATE.
# Usage: bash Benchmarks/store/run.sh [N]   (figures go to Benchmarks/RESULTS.md by hand)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000}
W=Benchmarks/work/store
mkdir -p "$W"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
command -v sqlite3 >/dev/null || { apt-get update -qq && apt-get install -y -qq sqlite3; }
swift build -c release --product ckschema >/dev/null
BIN=$(swift build -c release --show-bin-path)/ckschema

rm -rf "$W/migrations" && mkdir -p "$W/migrations"
cp Benchmarks/store/migrations/*.yaml "$W/migrations/"
"$BIN" migrate hash --migrations "$W/migrations" >/dev/null
[ -f "$W/records-$N.ndjson" ] || python3 Benchmarks/store/gen.py "$N" > "$W/records-$N.ndjson"

# An empty store with the Item type (migration 1): both importers start from a copy of it.
rm -f "$W/empty.sqlite" && "$BIN" migrate apply --to 1 --store "$W/empty.sqlite" --migrations "$W/migrations" >/dev/null

echo "== records import of $N records"
hyperfine --runs 3 --export-markdown "$W/import.md" \
  --prepare "cp $W/empty.sqlite $W/a.sqlite" \
  -n "ckschema records import" "$BIN records import --env development --store $W/a.sqlite $W/records-$N.ndjson" \
  --prepare "cp $W/empty.sqlite $W/p.sqlite" \
  -n "python3 sqlite3 executemany" "python3 Benchmarks/store/py_import.py $W/p.sqlite $W/records-$N.ndjson"
echo "rows: ckschema $(sqlite3 $W/a.sqlite 'select count(*) from records'), python $(sqlite3 $W/p.sqlite 'select count(*) from records')"

# The imported store is the base of the backfill runs.
cp "$W/a.sqlite" "$W/imported.sqlite"
UPDATE="UPDATE records SET fields = json_set(fields, '\$.score', (json_extract(fields, '\$.count') * 2)), change_tag = 'b' || '-' || printf('%x', id), modified_at = 0 WHERE env = 'development' AND record_type = 'Item' AND json_extract(fields, '\$.score') IS NULL AND ((json_extract(fields, '\$.count') * 2)) IS NOT NULL"
echo "== backfill over $N records"
hyperfine --runs 3 --export-markdown "$W/backfill.md" \
  --prepare "cp $W/imported.sqlite $W/b.sqlite" \
  -n "ckschema migrate apply (backfill)" "$BIN migrate apply --store $W/b.sqlite --migrations $W/migrations" \
  --prepare "cp $W/imported.sqlite $W/s.sqlite" \
  -n "sqlite3 shell UPDATE" "sqlite3 $W/s.sqlite \"BEGIN IMMEDIATE; $UPDATE; COMMIT;\"" \
  --prepare "cp $W/imported.sqlite $W/c.sqlite" \
  -n "sqlite3 shell UPDATE, 64 MB cache" "sqlite3 $W/c.sqlite \"PRAGMA cache_size=-65536; BEGIN IMMEDIATE; $UPDATE; COMMIT;\""
echo "scored: ckschema $(sqlite3 $W/b.sqlite "select count(*) from records where json_extract(fields,'\$.score') is not null"), sqlite3 $(sqlite3 $W/s.sqlite "select count(*) from records where json_extract(fields,'\$.score') is not null")"
