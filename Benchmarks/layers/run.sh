#!/usr/bin/env bash
# Issue 18: the layer split must keep validate (200,000 records) and load + lint (2,000 x 40)
# within 5% of the single-module build. Issue 30 (the target graph): validate, lint and `.ckdb`
# import (2,000 x 45, a fresh output) within 2% of the commit before. Builds the release binary of a baseline commit (in a
# worktree) and of the working tree, and measures both on the same inputs: instructions
# (callgrind, which do not depend on what else the machine runs) and wall time (hyperfine).
#
#   bash Benchmarks/layers/run.sh [BASELINE_COMMIT]     (default 80762df, before the split)
#   BASELINE_DIR=/path/to/worktree bash Benchmarks/layers/run.sh   (reuse a worktree already at that commit)
#   OLD_BIN=/path/to/ckschema bash Benchmarks/layers/run.sh         (a baseline release binary built already)
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
base_commit="${1:-80762df}"  # before the split
# Outside the repository: the old binary refuses the repository's ckschema.yaml (keys it does
# not know, such as code:), and both must run where no ckschema.yaml is found.
work="${TMPDIR:-/tmp}/ckschema-bench-layers"
mkdir -p "$work"
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind; }

if [ -n "${OLD_BIN:-}" ]; then
  old="$OLD_BIN"  # a release binary of the baseline built already (e.g. copied aside before a change)
else
  base="${BASELINE_DIR:-$root/Benchmarks/work/layers-baseline}"
  if [ ! -d "$base" ]; then git worktree add -f --detach "$base" "$base_commit" >/dev/null; fi
  [ "$(git -C "$base" rev-parse HEAD)" = "$(git rev-parse "$base_commit")" ] || { echo "$base is not at $base_commit" >&2; exit 2; }
  (cd "$base" && swift build -c release --product ckschema >/dev/null)
  old="$base/.build/release/ckschema"
fi
swift build -c release --product ckschema >/dev/null
new="$root/.build/release/ckschema"

python3 Benchmarks/lint/generate.py 2000 40 "$work/schema.yaml"
python3 Benchmarks/ckdb/generate.py 2000 45 "$work/schema.ckdb"
N=200000
[ -s "$work/records.ndjson" ] || python3 Benchmarks/validate/generate.py "$N" "$work/records.ndjson"
vschema="$root/Benchmarks/validate/schema.yaml"
cd "$work"

uptime
for label in lint validate ckdb-import; do
  case $label in
    lint) args=(lint "$work/schema.yaml") ;;
    validate) args=(validate --jobs 1 --schema "$vschema" "$work/records.ndjson") ;;
    # A fresh output each run: `import -o FILE` merges into a FILE that holds a schema.
    ckdb-import) args=(import "$work/schema.ckdb" -o "$work/imported.yaml") ;;
  esac
  for bin in "$old" "$new"; do
    rm -f "$work/imported.yaml"
    printf '%s %s: ' "$label" "$([ "$bin" = "$old" ] && echo before || echo after)"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "${args[@]}" 2>&1 >/dev/null | grep -o 'refs: *[0-9,]*' || true  # validate exits 1: the file holds errors
  done
  # Wall time means little while other builds share the cores: SKIP_WALL=1 leaves it out.
  if [ -z "${SKIP_WALL:-}" ]; then
    hyperfine --warmup 2 --runs "${RUNS:-10}" -N -i \
      --prepare "rm -f $work/imported.yaml" -n "$label before" "$old ${args[*]}" -n "$label after" "$new ${args[*]}"
  fi
done
uptime
