#!/usr/bin/env bash
# Benchmark (issue #11, defect 5): every record reader is linear in its input with bounded
# memory on hostile input. Times and peak memory of a release `ckschema` on
#   - one record with N unknown fields (N = 10,000 and 100,000; production: N errors,
#     development: N notes);
#   - a minified one-line JSON array of 5 and 50 MB, beside its peer: the same records as
#     NDJSON (the issue's comparison: 2.7 MB took 14 s as an array, 0.03 s as NDJSON);
#   - N failing records with --format json and --format text (N = 100,000 and FAIL_N,
#     1,000,000 by default; the issue's 6M scaled down on a shared 2-core machine).
# Writes Benchmarks/work/hostile-results.md.
#
#   bash Benchmarks/hostile/run.sh
#   FAIL_N=6000000 bash Benchmarks/hostile/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
FAIL_N=${FAIL_N:-1000000}
WORK=Benchmarks/work/hostile
mkdir -p "$WORK"
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
swift build -c release --product ckschema >/dev/null
BIN=.build/release/ckschema
SCHEMA=Benchmarks/hostile/schema.yaml
GEN="python3 Benchmarks/hostile/generate.py"

gen() { [ -s "$WORK/$3" ] || $GEN "$1" "$2" "$WORK/$3"; }
gen wide 10000 wide-10k.ndjson
gen wide 100000 wide-100k.ndjson
gen array 5 array-5mb.json
gen ndjson 5 array-5mb.ndjson
gen array 50 array-50mb.json
gen ndjson 50 array-50mb.ndjson
gen failing 100000 failing-100k.ndjson
gen failing "$FAIL_N" "failing-$FAIL_N.ndjson"

# measure LABEL FILE ARGS...: best wall time of 2 runs, and the peak RSS.
out="$WORK/../hostile-results.md"
{
  echo "| input | size | command | wall (best of 2) | peak RSS | result |"
  echo "|---|---:|---|---:|---:|---|"
} > "$out"
measure() {
  local label="$1" file="$2"; shift 2
  local best="" rss="" last=""
  for _ in 1 2; do
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$BIN" "$@" "$WORK/$file" > "$WORK/out.txt" 2>/dev/null || true
    read -r secs kb < <(tail -1 "$WORK/time.txt")
    if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; fi
    rss=$kb
    last=$(tail -c 300 "$WORK/out.txt" | tail -1 | cut -c1-60)
  done
  local size; size=$(du -h "$WORK/$file" | cut -f1)
  printf '| %s | %s | `ckschema %s` | %s s | %d MB | %s |\n' "$label" "$size" "$*" "$best" $((rss / 1024)) "$last" | tee -a "$out"
}

measure "10,000 unknown fields, production" wide-10k.ndjson validate --env production --schema "$SCHEMA"
measure "100,000 unknown fields, production" wide-100k.ndjson validate --env production --schema "$SCHEMA"
measure "100,000 unknown fields, development" wide-100k.ndjson validate --env development --schema "$SCHEMA"
measure "100,000 unknown fields, --infer" wide-100k.ndjson validate --env development --infer --schema "$SCHEMA"
measure "5 MB one-line array" array-5mb.json validate --schema "$SCHEMA"
measure "same records as NDJSON (peer)" array-5mb.ndjson validate --schema "$SCHEMA"
measure "50 MB one-line array" array-50mb.json validate --schema "$SCHEMA"
measure "same records as NDJSON (peer)" array-50mb.ndjson validate --schema "$SCHEMA"
measure "100,000 failing records, json" failing-100k.ndjson validate --format json --schema "$SCHEMA"
measure "$FAIL_N failing records, json" "failing-$FAIL_N.ndjson" validate --format json --schema "$SCHEMA"
measure "$FAIL_N failing records, text" "failing-$FAIL_N.ndjson" validate --schema "$SCHEMA"
measure "$FAIL_N failing records, sarif (capped)" "failing-$FAIL_N.ndjson" validate --format sarif --schema "$SCHEMA"
echo "written: $out"
