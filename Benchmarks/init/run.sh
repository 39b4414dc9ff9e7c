#!/usr/bin/env bash
# `ckschema init --from-production` of generated cktool exports of 1,000 to 8,000 record types
# (Benchmarks/ckdb/generate.py, 10 fields each), `lint` of the same export for scale, and
# the other writes of that many types' schema to a store: `migrate apply` of the baseline
# (one migration adding every type) into a new store, and `promote --apply` of a plan that
# adds one field (production's whole schema written again).
# Target (issue 35 point 9): linear; 8,000 types within 5 s (lint of it: 0.05 s).
# BIN=path/to/ckschema to measure another build (default: the release build, built here).
# SIZES="1000 4000 8000" to choose the sizes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/init"
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then (cd "$root" && swift build -c release --product ckschema >/dev/null); BIN="$root/.build/release/ckschema"; fi
echo "machine: $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg), binary: $BIN"
secs() { echo "$2 - $1" | bc; }
for n in ${SIZES:-1000 2000 4000 8000}; do
  python3 "$root/Benchmarks/ckdb/generate.py" "$n" 10 "$work/s$n.ckdb"
  rm -rf "$work/r$n" && mkdir -p "$work/r$n"
  start=$(date +%s.%N)
  "$BIN" init "$work/r$n" --from-production "$work/s$n.ckdb" --container iCloud.com.example.Bench >/dev/null
  end=$(date +%s.%N)
  lstart=$(date +%s.%N); "$BIN" lint "$work/s$n.ckdb" >/dev/null || true; lend=$(date +%s.%N)
  # migrate apply of the baseline (n types) into a new store.
  rm -f "$work/m$n.sqlite"
  mstart=$(date +%s.%N)
  (cd "$work/r$n" && "$BIN" migrate apply --store "$work/m$n.sqlite" >/dev/null)
  mend=$(date +%s.%N)
  # promote --apply of one added field: production's n types written again.
  (cd "$work/r$n" && python3 - <<'PY'
import re
p = "Schemas/development.yaml"
s = open(p).read()
m = re.search(r"\n  (Type\w+):\n(    [^\n]*\n)*?    fields:\n", s)
i = m.end()
open(p, "w").write(s[:i] + "      benchAdded: string\n" + s[i:])
PY
  "$BIN" migrate new bench_added >/dev/null && "$BIN" migrate apply >/dev/null && "$BIN" promote --plan plan.json >/dev/null 2>&1 || true)
  pstart=$(date +%s.%N)
  (cd "$work/r$n" && "$BIN" promote --apply plan.json >/dev/null)
  pend=$(date +%s.%N)
  printf '%5d types: init --from-production %7.2f s, lint %5.2f s, migrate apply (new store) %7.2f s, promote --apply %7.2f s\n' \
    "$n" "$(secs "$start" "$end")" "$(secs "$lstart" "$lend")" "$(secs "$mstart" "$mend")" "$(secs "$pstart" "$pend")"
done
