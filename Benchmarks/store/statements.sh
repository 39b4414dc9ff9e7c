#!/usr/bin/env bash
# Issue 18 (the records table's SQL in one place, statements cached on the connection): the
# record paths of the store, run by two ckschema binaries side by side, so that the change is
# measured against the code before it under the same load (the limit is 5%).
#   1. records import of N records into an empty store (insert per record);
#   2. the same import with two query subscriptions (the notification recorder's statements);
#   3. the same records imported again over the full store with --save-policy allKeys
#      (insert refused, lookup, replace: three statements per record);
#   4. records export of the N records (the export scan).
# Usage: bash Benchmarks/store/statements.sh BEFORE_BIN AFTER_BIN [N]   (default N 200,000)
# Build each binary with `swift build -c release --product ckschema` at the commit to measure,
# and copy it aside (e.g. Benchmarks/work/ckschema-before). Figures go to Benchmarks/RESULTS.md by hand.
set -euo pipefail
cd "$(dirname "$0")/../.."
BEFORE=${1:?usage: statements.sh BEFORE_BIN AFTER_BIN [N]}
AFTER=${2:?usage: statements.sh BEFORE_BIN AFTER_BIN [N]}
N=${3:-200000}
W=Benchmarks/work/statements
mkdir -p "$W"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }

for m in migrations subscriptions; do
  rm -rf "$W/$m" && cp -r "Benchmarks/runtime/$m" "$W/$m"
  "$AFTER" migrate hash --migrations "$W/$m" >/dev/null
done
[ -f "$W/records-$N.ndjson" ] || python3 Benchmarks/store/gen.py "$N" > "$W/records-$N.ndjson"
R="$W/records-$N.ndjson"
rm -f "$W/none.sqlite" "$W/subs.sqlite" "$W/full.sqlite"
"$AFTER" migrate apply --store "$W/none.sqlite" --migrations "$W/migrations" >/dev/null
"$AFTER" migrate apply --store "$W/subs.sqlite" --migrations "$W/subscriptions" >/dev/null
cp "$W/none.sqlite" "$W/full.sqlite"
"$AFTER" records import --env development --store "$W/full.sqlite" "$R" >/dev/null

echo "== records import of $N records into an empty store"
hyperfine --runs 5 --export-markdown "$W/import.md" \
  --prepare "cp $W/none.sqlite $W/a.sqlite" -n "before: records import" "$BEFORE records import --env development --store $W/a.sqlite $R" \
  --prepare "cp $W/none.sqlite $W/a.sqlite" -n "after: records import" "$AFTER records import --env development --store $W/a.sqlite $R"

echo "== records import of $N records, two query subscriptions"
hyperfine --runs 5 --export-markdown "$W/subs.md" \
  --prepare "cp $W/subs.sqlite $W/b.sqlite" -n "before: records import, subscriptions" "$BEFORE records import --env development --store $W/b.sqlite $R" \
  --prepare "cp $W/subs.sqlite $W/b.sqlite" -n "after: records import, subscriptions" "$AFTER records import --env development --store $W/b.sqlite $R"

echo "== records import of the same $N records over them, --save-policy allKeys"
hyperfine --runs 5 --export-markdown "$W/replace.md" \
  --prepare "cp $W/full.sqlite $W/c.sqlite" -n "before: records import, allKeys over existing" "$BEFORE records import --env development --save-policy allKeys --store $W/c.sqlite $R" \
  --prepare "cp $W/full.sqlite $W/c.sqlite" -n "after: records import, allKeys over existing" "$AFTER records import --env development --save-policy allKeys --store $W/c.sqlite $R"

echo "== records export of $N records"
hyperfine --warmup 1 --runs 5 --export-markdown "$W/export.md" \
  -n "before: records export" "$BEFORE records export --env development --store $W/full.sqlite -o /dev/null" \
  -n "after: records export" "$AFTER records export --env development --store $W/full.sqlite -o /dev/null"

# The outputs agree: the same records, the same notifications.
"$BEFORE" records export --env development --store "$W/full.sqlite" | md5sum
"$AFTER" records export --env development --store "$W/full.sqlite" | md5sum
