#!/usr/bin/env bash
# The promote benchmark: diff + plan of generated schema pairs that differ in 1% of
# their fields, at 500, 1,000, 2,000 and 4,000 record types.
#   end to end: `ckschema promote FROM TO --check` (parse both, lint, diff, classify) and
#               `... --plan plan.json` (also hash both schemas and write the plan), and
#               `ckschema lint TO` (parse and lint one file) for scale, with hyperfine;
#               peak memory of the --plan run with /usr/bin/time -v
#   the diff's own cost: Benchmarks/promote/harness (SchemaDiff / PromotionPlan alone, in
#               thread CPU seconds, steady on a shared machine)
# Usage: bash Benchmarks/promote/run.sh      (from the repository root)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$root/Benchmarks/work/promote"
mkdir -p "$work"

if ! command -v hyperfine >/dev/null; then
  apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi

swift build -c release --package-path "$root" --product ckschema >/dev/null
swift build -c release --package-path "$root/Benchmarks/promote/harness" >/dev/null
bin="$root/.build/release/ckschema"
bench="$(swift build -c release --package-path "$root/Benchmarks/promote/harness" --show-bin-path)/diffbench"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "ckschema: $($bin --version)"
for n in 500 1000 2000 4000; do
  dir="$work/n$n"
  python3 "$root/Benchmarks/promote/generate.py" "$n" "$dir" >/dev/null
  echo "== $n record types"
  "$bench" "$dir/production.yaml" "$dir/development.yaml" 9
  hyperfine --warmup 1 --runs 10 --style basic -i \
    "$bin promote $dir/production.yaml $dir/development.yaml --check" \
    "$bin promote $dir/production.yaml $dir/development.yaml --plan $dir/plan.json" \
    "$bin lint $dir/development.yaml" 2>&1 | grep -E "Benchmark|Time|Range"
  /usr/bin/time -v "$bin" promote "$dir/production.yaml" "$dir/development.yaml" --plan "$dir/plan.json" 2>&1 >/dev/null \
    | grep -E "Maximum resident|Elapsed" | sed 's/^\s*/  /'
done
