#!/usr/bin/env bash
# Load + lint a 2,000-record-type x 40-field YAML schema with ckschema, side by side
# with libyaml alone parsing the same file. Target (issue 36 point 2): ckschema <= 1.3x libyaml,
# in instructions and in CPU time.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/Benchmarks/work/lint"
mkdir -p "$work"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }

python3 "$here/generate.py" 2000 40 "$work/schema.yaml"
gcc -O2 -o "$work/libyaml_parse" "$here/libyaml_parse.c" $(pkg-config --cflags --libs yaml-0.1)
(cd "$root" && swift build -c release --product ckschema >/dev/null)
bin="$root/.build/release/ckschema"
# STATIC=1: the binary scripts/build-release.sh ships (the Swift runtime and Foundation linked
# in), built in a scratch folder of its own; it starts without loading Foundation's libraries.
if [ -n "${STATIC:-}" ]; then
  (cd "$root" && swift build -c release --product ckschema --static-swift-stdlib --scratch-path "$root/.build/static" >/dev/null)
  bin="$root/.build/static/release/ckschema"
fi

ls -l "$work/schema.yaml"
"$work/libyaml_parse" "$work/schema.yaml"
"$bin" lint "$work/schema.yaml" | tail -1 || true
# The machine is shared: say how loaded it was beside the times.
uptime
hyperfine --warmup 3 --runs "${RUNS:-30}" -N \
  --export-markdown "$work/lint.md" \
  "$work/libyaml_parse $work/schema.yaml" \
  "$bin lint $work/schema.yaml"
uptime
# Peak memory and page faults of both.
for cmd in "$work/libyaml_parse $work/schema.yaml" "$bin lint $work/schema.yaml"; do
  printf '%s: ' "$cmd"
  /usr/bin/time -v $cmd 2>&1 >/dev/null | grep -E "Maximum resident|Minor" | tr -s ' \t' ' ' | paste -sd ';'
done

# Instructions (callgrind), which do not depend on what else the machine is doing.
if command -v valgrind >/dev/null; then
  for cmd in "$work/libyaml_parse $work/schema.yaml" "$bin lint $work/schema.yaml"; do
    printf '%s: ' "$cmd"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null $cmd 2>&1 >/dev/null | grep -o 'refs: *[0-9,]*'
  done
fi
