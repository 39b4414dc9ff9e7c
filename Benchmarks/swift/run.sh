#!/usr/bin/env bash
# Reading SwiftData sources end to end (issue 19): `ckschema import DIR -o /dev/null` (the
# Swift lexer, the declaration reader, the CD_ mapping, the YAML writer) against the real
# Swift parser over the same files, `swiftc -frontend -parse FILES` (parse only, no output).
# Target: at most half the parser's time, memory flat in the number of files.
#
#   bash Benchmarks/swift/run.sh [SIZE_MB]      (default 5)
#   DENSE=1 bash Benchmarks/swift/run.sh [SIZE_MB]   (issue 36 point 4: generate_dense.py, every
#   line of a model a stored property)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/swift"
size="${1:-5}"
runs="${RUNS:-10}"
rm -rf "$work/Models" "$work/Small"
mkdir -p "$work"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }

gen="$here/generate.py"
[ -n "${DENSE:-}" ] && gen="$here/generate_dense.py"
python3 "$gen" "$work/Models" "$size"
python3 "$gen" "$work/Small" 0.5
(cd "$root" && swift build -c release --product ckschema >/dev/null)
bin="$root/.build/release/ckschema"
echo "sources: $(ls "$work/Models" | wc -l) files, $(du -sb "$work/Models" | cut -f1) bytes"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" import "$work/Models" -o /dev/null
hyperfine --warmup 2 --runs "$runs" -N --export-markdown "$work/results.md" \
  "$bin import $work/Models -o /dev/null" \
  "swiftc -frontend -parse $(ls "$work"/Models/*.swift | tr '\n' ' ')"
# CPU time beside wall time: on the shared machine the load inflates wall time, not CPU time.
files="$(ls "$work"/Models/*.swift | tr '\n' ' ')"
for i in 1 2 3; do
  /usr/bin/time -f "ckschema import: %e s wall, %U s user, %S s sys" "$bin" import "$work/Models" -o /dev/null
  # shellcheck disable=SC2086
  /usr/bin/time -f "swiftc -frontend -parse: %e s wall, %U s user, %S s sys" swiftc -frontend -parse $files
done
for d in Small Models; do
  echo "peak memory, $d ($(du -sb "$work/$d" | cut -f1) bytes):"
  /usr/bin/time -v "$bin" import "$work/$d" -o /dev/null 2>&1 | grep -E "Maximum resident|Elapsed"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# `-o /dev/null` must write into the device: an atomic write once renamed a file over it.
[ -c /dev/null ] || { echo "error: /dev/null is no longer a character device" >&2; exit 1; }
