#!/usr/bin/env bash
# Benchmark: `ckschema validate` against the peer a user would otherwise write
# (orjson + jsonschema-rs over the JSON Schema that `ckschema export --format jsonschema`
# writes), on 1,000,000 generated records. Writes Benchmarks/work/validate-results.md.
#
#   bash Benchmarks/validate/run.sh            # N=1000000 records, 3 runs each
#   N=200000 RUNS=1 bash Benchmarks/validate/run.sh
#   MEMORY=1 bash Benchmarks/validate/run.sh   # also: peak RSS on a file of about 1 GB
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-1000000}
RUNS=${RUNS:-3}
WORK=Benchmarks/work
mkdir -p "$WORK"

command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
if [ ! -x "$WORK/venv/bin/python" ]; then python3 -m venv "$WORK/venv"; fi
"$WORK/venv/bin/pip" install -q orjson jsonschema-rs

swift build -c release --product ckschema >/dev/null
BIN=.build/release/ckschema
SCHEMA=Benchmarks/validate/schema.yaml
DATA="$WORK/records-$N.ndjson"
[ -s "$DATA" ] || python3 Benchmarks/validate/generate.py "$N" "$DATA"
"$BIN" export --format jsonschema "$SCHEMA" -o "$WORK/schema.json"
BYTES=$(stat -c %s "$DATA")
cat "$DATA" >/dev/null   # warm the page cache: the runs compare CPU work, not the disk

CK1="$BIN validate --jobs 1 --schema $SCHEMA $DATA"
CK2="$BIN validate --jobs 2 --schema $SCHEMA $DATA"
PEER="$WORK/venv/bin/python Benchmarks/validate/peer.py $WORK/schema.json $DATA"

# Both report the same records as invalid; check before timing.
ck_errors=$( { $CK1 || true; } | tail -1)
peer_errors=$( { $PEER || true; } | tail -1)
echo "ckschema: $ck_errors"
echo "peer:     $peer_errors"

# The exported JSON Schema is equivalent to validate on single records: over every
# NDJSON fixture, both flag the same lines (leaving out what JSON Schema cannot
# express: zones, sizes, batches, warnings; docs/records.md).
"$BIN" export --format jsonschema Tests/Fixtures/records/schema.yaml -o "$WORK/fixtures.schema.json"
lines() { { grep -E "$1" || true; } | cut -d: -f2 | sort -u | tr '\n' ' '; }
for f in Tests/Fixtures/records/*.ndjson; do
    # The exported JSON Schema leaves a record's keys open and knows no zones: the fixtures of
    # misspelt keys (CK415, which the schema reads as a missing key or not at all) and of zones
    # (CK904) are validate's alone, as are the deleteSelf count over all records (CK418).
    case "$f" in */CK415.keys.*|*/CK904.*) continue ;; esac
    ck=$( { "$BIN" validate --schema Tests/Fixtures/records/schema.yaml "$f" || true; } | grep -vE 'CK408|CK41[0-4]|CK418' | lines ': error: ')
    py=$( { "$WORK/venv/bin/python" Benchmarks/validate/peer.py "$WORK/fixtures.schema.json" "$f" || true; } | lines ': error:')
    [ "$ck" = "$py" ] || { echo "the JSON Schema and validate disagree on $f: validate [$ck], JSON Schema [$py]"; exit 1; }
done
echo "fixtures: validate and the exported JSON Schema flag the same lines"

hyperfine --runs "$RUNS" --warmup 1 -i --export-json "$WORK/hyperfine.json" \
    -n "ckschema --jobs 1" "$CK1 >/dev/null" \
    -n "ckschema --jobs 2" "$CK2 >/dev/null" \
    -n "peer (orjson + jsonschema-rs)" "$PEER >/dev/null"

# Peak RSS in KB (both exit 1 on this data: it holds invalid records on purpose).
rss() { { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null || true; } | tail -1; }
RSS1=$(rss $CK1); RSS2=$(rss $CK2); RSSP=$(rss $PEER)

python3 - "$WORK/hyperfine.json" "$N" "$BYTES" "$RSS1" "$RSS2" "$RSSP" > "$WORK/validate-results.md" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
n, size = int(sys.argv[2]), int(sys.argv[3])
rss = sys.argv[4:7]
print(f"{n:,} records, {size / 1e6:.0f} MB\n")
print("| run | wall s (mean ± sd) | CPU s (user+sys) | records/s (wall) | MB/s (wall) | records/s per CPU-second | MB per CPU-second | peak RSS MB |")
print("|---|---|---|---|---|---|---|---|")
for r, m in zip(h["results"], rss):
    wall, sd = r["mean"], r["stddev"] or 0
    cpu = r["user"] + r["system"]
    print(f"| {r['command']} | {wall:.2f} ± {sd:.2f} | {cpu:.2f} | {n / wall:,.0f} | {size / 1e6 / wall:.0f} | {n / cpu:,.0f} | {size / 1e6 / cpu:.0f} | {int(m) / 1024:.0f} |")
PY
cat "$WORK/validate-results.md"

if [ "${MEMORY:-0}" = 1 ]; then
    BIG="$WORK/records-1gb.ndjson"
    [ -s "$BIG" ] || { for _ in 1 2; do cat "$DATA"; done > "$BIG"; }
    echo "peak RSS on $(($(stat -c %s "$BIG") / 1000000)) MB: $(rss $BIN validate --schema $SCHEMA "$BIG") KB" | tee -a "$WORK/validate-results.md"
fi
