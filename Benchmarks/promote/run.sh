#!/usr/bin/env bash
# The promote benchmark: diff + plan of generated schema pairs that differ in 1% of
# their fields, at 500, 1,000, 2,000 and 4,000 record types.
#   end to end: `ckschema promote FROM TO --plan plan.json` (parse both, lint, diff, plan,
#               hash both, write the plan), with hyperfine and /usr/bin/time -v
#   the diff's own cost: Benchmarks/promote/harness (SchemaDiff / PromotionPlan alone)
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
    "$bin promote $dir/production.yaml $dir/development.yaml --plan $dir/plan.json" 2>&1 | grep -E "Time|Range"
  /usr/bin/time -v "$bin" promote "$dir/production.yaml" "$dir/development.yaml" --plan "$dir/plan.json" 2>&1 >/dev/null \
    | grep -E "Maximum resident|Elapsed" | sed 's/^\s*/  /'
done
