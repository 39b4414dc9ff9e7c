#!/usr/bin/env bash
# records import: peak memory against the number of records (issue 12: flat in the count).
# Usage: bash Benchmarks/store/memory.sh [N...]   (default: 50000 200000 400000 800000)
set -euo pipefail
cd "$(dirname "$0")/../.."
W=Benchmarks/work/store-memory
mkdir -p "$W/migrations"
swift build -c release --product ckschema >/dev/null
BIN=$(swift build -c release --show-bin-path)/ckschema
cp Benchmarks/store/migrations/*.yaml "$W/migrations/"
"$BIN" migrate hash --migrations "$W/migrations" >/dev/null
rm -f "$W/empty.sqlite" && "$BIN" migrate apply --to 1 --store "$W/empty.sqlite" --migrations "$W/migrations" >/dev/null
echo "records | wall | peak RSS"
for n in "${@:-50000 200000 400000 800000}"; do
  for m in $n; do
    [ -f "$W/r$m.ndjson" ] || python3 Benchmarks/store/gen.py "$m" > "$W/r$m.ndjson"
    cp "$W/empty.sqlite" "$W/s.sqlite"
    /usr/bin/time -v "$BIN" records import --env development --store "$W/s.sqlite" "$W/r$m.ndjson" 2> "$W/time.txt" >/dev/null
    echo "$m | $(grep 'Elapsed' "$W/time.txt" | awk '{print $NF}') | $(grep 'Maximum resident' "$W/time.txt" | awk '{print $NF}') KB"
  done
done
