#!/usr/bin/env bash
# Load + lint a Core Data model of 500 entities x 40 attributes (issue #13: "well under a
# second"). Measures, on the same generated model:
#   - `ckschema lint Bench.xcdatamodeld`: XMLParser read, mapping to the CD_ schema, every lint rule
#   - `ckschema export Bench.xcdatamodeld --format ckdb`: read + mapping + .ckdb text
#   - the peer: `xmllint --noout contents`, libxml2 alone parsing the same XML (the parser
#     FoundationXML's XMLParser wraps on Linux), when xmllint is installed
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/coredata"
entities="${1:-500}"
attributes="${2:-40}"
mkdir -p "$work"
rm -rf "$work/Bench.xcdatamodeld"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }

python3 "$here/generate.py" "$entities" "$attributes" "$work/Bench.xcdatamodeld"
(cd "$root" && swift build -c release --product ckschema >/dev/null)
bin="$root/.build/release/ckschema"
contents="$work/Bench.xcdatamodeld/Bench.xcdatamodel/contents"
echo "model: $entities entities x $attributes attributes, contents $(stat -c %s "$contents") bytes"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" lint "$work/Bench.xcdatamodeld" && echo "lint: clean"

commands=("$bin lint $work/Bench.xcdatamodeld" "$bin export $work/Bench.xcdatamodeld --format ckdb -o $work/out.ckdb")
if command -v xmllint >/dev/null; then commands+=("xmllint --noout $contents"); fi
hyperfine --warmup 1 --runs 10 -N --export-markdown "$work/results.md" "${commands[@]}"
/usr/bin/time -v "$bin" lint "$work/Bench.xcdatamodeld" 2>&1 | grep -E "Maximum resident|Elapsed|User time|System time"
