#!/usr/bin/env bash
# ckschema scan on a generated app (8,000 files, ~17 MB) side by side with
# `swiftc -frontend -parse` on the same files (Benchmarks/RESULTS.md).
#   Benchmarks/scan/run.sh [FILES]
#   DENSE=1 Benchmarks/scan/run.sh [FILES] [FUNCTIONS]   (issue 36 point 4: generate_dense.py,
#   every function saves, queries and subscribes; default 400 files of 40 functions)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TMPDIR:-/tmp}/ckschema-scan-bench
rm -rf "$work"
if [ -n "${DENSE:-}" ]; then
  python3 "$root/Benchmarks/scan/generate_dense.py" "$work/App" "${1:-400}" "${2:-40}"
else
  python3 "$root/Benchmarks/scan/generate.py" "$work/App" "${1:-8000}"
fi
(cd "$root" && swift build -c release --product ckschema >/dev/null)
bin="$root/.build/release/ckschema"
cd "$work"
find App -name '*.swift' | sort > files.txt
echo "bytes: $(cat $(cat files.txt) | wc -c), files: $(wc -l < files.txt)"
# The file list goes to swiftc as a response file (@files.txt): 8,000 paths on one command
# line are too long for hyperfine's argument list.
/usr/bin/time -v "$bin" scan App --schema schema.yaml 2>&1 >/dev/null | grep -E 'User time|System time|Elapsed|Maximum resident'
/usr/bin/time -v swiftc -frontend -parse @files.txt 2>&1 | grep -E 'User time|System time|Elapsed|Maximum resident'
command -v hyperfine >/dev/null && hyperfine -N -w 1 -r "${RUNS:-5}" "$bin scan App --schema schema.yaml" "swiftc -frontend -parse @files.txt"
