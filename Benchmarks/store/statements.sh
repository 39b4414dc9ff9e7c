#!/usr/bin/env bash
# Issue 18 (the records table's SQL in one place, statements cached on the connection): the
# record paths of the store, run by two ckschema binaries side by side, so that the change is
# measured against the code before it under the same load (the limit is 5%).
#   1. records import of N records into an empty store (insert per record);
#   2. the same import with two query subscriptions (the notification recorder's statements);
#   3. the same records imported again over the full store with --save-policy allKeys
#      (insert refused, lookup, replace: three statements per record);
#   4. records export of the N records (the export scan).
# Each runs RUNS times (default 3) per binary under hyperfine, then RUNS alternating rounds under /usr/bin/time
# (SKIP_TIMES=1 skips them); with CALLGRIND=1, also the instructions of a smaller import
# (CALLGRIND_N records, default 20,000) by each binary, which the machine's load does not change.
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

RUNS=${RUNS:-3}
# One workload: hyperfine over both binaries (wall time), then RUNS rounds that alternate the
# two under /usr/bin/time (user + system CPU and peak memory), which a shared machine's load
# shifts less than wall time. PREP restores the store before each run.
bench() {
  local name=$1 prep=$2 args=$3
  echo "== $name"
  hyperfine --runs "$RUNS" --export-markdown "$W/$(echo "$name" | tr -c 'a-z0-9' '-').md" \
    --prepare "$prep" -n "before: $name" "$BEFORE $args" \
    --prepare "$prep" -n "after: $name" "$AFTER $args"
  for i in $(seq "$RUNS"); do
    for side in before after; do
      local bin=$BEFORE; [ "$side" = after ] && bin=$AFTER
      bash -c "$prep"
      /usr/bin/time -f "$side cpu %U+%S s, wall %e s, max RSS %M KB" $bin $args >/dev/null 2>"$W/time.txt" || true
      tail -1 "$W/time.txt"
    done
  done
}

if [ "${SKIP_TIMES:-0}" != 1 ]; then
bench "records import, empty store" "cp $W/none.sqlite $W/a.sqlite" "records import --env development --store $W/a.sqlite $R"
bench "records import, two query subscriptions" "cp $W/subs.sqlite $W/a.sqlite" "records import --env development --store $W/a.sqlite $R"
bench "records import allKeys over existing" "cp $W/full.sqlite $W/a.sqlite" "records import --env development --save-policy allKeys --store $W/a.sqlite $R"
bench "records export" "true" "records export --env development --store $W/full.sqlite -o $W/out.ndjson"

fi

# The outputs agree: the same records exported from the same store.
"$BEFORE" records export --env development --store "$W/full.sqlite" | md5sum
"$AFTER" records export --env development --store "$W/full.sqlite" | md5sum

# Instructions (callgrind), which the machine's load does not change: CALLGRIND_N records
# (default 20,000) imported into an empty store and with two subscriptions, by each binary.
if [ "${CALLGRIND:-0}" = 1 ]; then
  CN=${CALLGRIND_N:-20000}
  [ -f "$W/records-$CN.ndjson" ] || python3 Benchmarks/store/gen.py "$CN" > "$W/records-$CN.ndjson"
  for store in none subs; do
    for side in before after; do
      bin=$BEFORE; [ "$side" = after ] && bin=$AFTER
      cp "$W/$store.sqlite" "$W/cg.sqlite"
      valgrind --tool=callgrind --callgrind-out-file="$W/callgrind.$store.$side" "$bin" records import --env development --store "$W/cg.sqlite" "$W/records-$CN.ndjson" 2>&1 >/dev/null \
        | grep -o 'Collected : [0-9]*' | sed "s/^/$store $side: /"
    done
  done
fi
