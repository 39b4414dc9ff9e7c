#!/usr/bin/env bash
# `ckschema init --from-production` of generated cktool exports of 1,000 to 8,000 record types
# (Benchmarks/ckdb/generate.py, 10 fields each), and `lint` of the same export for scale.
# Target (issue 35 point 9): linear; 8,000 types within 5 s (lint of it: 0.05 s).
# BIN=path/to/ckschema to measure another build (default: the release build, built here).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/init"
mkdir -p "$work"
if [ -z "${BIN:-}" ]; then (cd "$root" && swift build -c release --product ckschema >/dev/null); BIN="$root/.build/release/ckschema"; fi
echo "machine: $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in ${SIZES:-1000 2000 4000 8000}; do
  python3 "$root/Benchmarks/ckdb/generate.py" "$n" 10 "$work/s$n.ckdb"
  rm -rf "$work/r$n" && mkdir -p "$work/r$n"
  start=$(date +%s.%N)
  "$BIN" init "$work/r$n" --from-production "$work/s$n.ckdb" --container iCloud.com.example.Bench >/dev/null
  end=$(date +%s.%N)
  lstart=$(date +%s.%N); "$BIN" lint "$work/s$n.ckdb" >/dev/null || true; lend=$(date +%s.%N)
  printf '%5d types: init --from-production %7.2f s, lint %5.2f s\n' "$n" "$(echo "$end - $start" | bc)" "$(echo "$lend - $lstart" | bc)"
done
