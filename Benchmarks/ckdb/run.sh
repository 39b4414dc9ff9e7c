#!/usr/bin/env bash
# Import a generated ~5 MB .ckdb schema (2,000 record types x 45 fields) with ckschema.
# Target: `ckschema import` at 50 MB/s or better.
#
# Measures, on the same file:
#   - `ckschema import schema.ckdb -o out.yaml`  (parse + canonical YAML + write: the command)
#   - `ckschema export schema.ckdb --format ckdb` (parse + .ckdb text)
#   - `ckschema lint` of the .ckdb file and of the same schema as YAML (libyaml-based loader):
#     the .ckdb reader against ckschema's own YAML reader, both followed by the same lint pass
#   - each stage of the import in one process (Benchmarks/ckdb/harness: CKDBParser.parse,
#     CKDBExporter.cktoolForm, the canonical YAML emission; best and median of 20)
#   - `ckschema import schema.ckdb -o existing.yaml`, the merge into an existing YAML schema
#     (it also loads that YAML file, so it is not the 50 MB/s figure)
# `import -o FILE` merges when FILE already holds a YAML schema, so out.yaml is removed before
# every run of the plain import (hyperfine --prepare): each run is a fresh import.
# There is no other .ckdb parser to compare with (cktool is macOS-only and talks to the server).
# SHAPE=indexed measures issue 18's second shape instead: a production export whose every field
# is indexed (`generate.py 2000 45 OUT indexed`); the default is the mixed shape.
# FIELDS=40 measures issue 36's file: 2,000 record types of 40 fields (default 45).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/ckdb"
mkdir -p "$work"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }

python3 "$here/generate.py" 2000 "${FIELDS:-45}" "$work/schema.ckdb" ${SHAPE:-}
(cd "$root" && swift build -c release --product ckschema >/dev/null)
swift build -c release --package-path "$here/harness" --scratch-path "$root/Benchmarks/work/harness-build" >/dev/null
bin="$root/.build/release/ckschema"
bench="$root/Benchmarks/work/harness-build/release/ckdb-parse-bench"

size=$(stat -c %s "$work/schema.ckdb")
echo "file: $work/schema.ckdb, $size bytes"
"$bin" import "$work/schema.ckdb" -o "$work/schema.yaml"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"

"$bench" "$work/schema.ckdb" 20
cp "$work/schema.yaml" "$work/existing.yaml"
hyperfine --warmup 2 --runs 15 -N --prepare "rm -f $work/out.yaml" \
  --export-markdown "$work/import.md" --export-json "$work/import.json" \
  "$bin import $work/schema.ckdb -o $work/out.yaml" \
  "$bin export $work/schema.ckdb --format ckdb -o $work/out.ckdb" \
  "$bin lint $work/schema.ckdb" \
  "$bin lint $work/schema.yaml" \
  "$bin import $work/schema.ckdb -o $work/existing.yaml" || true
python3 - "$work/import.json" "$size" <<'PY'
import json, sys
data = json.load(open(sys.argv[1])); size = int(sys.argv[2]) / 1e6
for r in data["results"]:
    print("%-70s mean %.1f ms (user %.1f ms, system %.1f ms): %.0f MB/s wall, %.0f MB/s CPU" % (
        r["command"].replace(sys.argv[1].rsplit("/", 1)[0] + "/", "")[-70:], r["mean"] * 1000, r["user"] * 1000, r["system"] * 1000,
        size / r["mean"], size / (r["user"] + r["system"])))
PY
rm -f "$work/out.yaml"
/usr/bin/time -v "$bin" import "$work/schema.ckdb" -o "$work/out.yaml" 2>&1 | grep -E "Maximum resident|Elapsed|User time|System time|Minor"
cmp -s "$work/out.yaml" "$work/schema.yaml" || { echo "import output differs between runs" >&2; exit 1; }
# CPU time and page faults, steadier than wall time on a shared machine.
if command -v perf >/dev/null; then
  perf stat -r 10 --pre "rm -f $work/out.yaml" -e task-clock,page-faults "$bin" import "$work/schema.ckdb" -o "$work/out.yaml" 2>&1 \
    | grep -E "task-clock|page-faults|elapsed" || true
fi
