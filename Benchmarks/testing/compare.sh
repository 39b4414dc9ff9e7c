#!/usr/bin/env bash
# Runs FakeCloudKit bench binaries (kept by `BENCH_OUT=path bash Benchmarks/testing/bench.sh`,
# one per commit) alternately RUNS times (default 7) and prints, for each, the minimum and the
# median CPU time and wall time of the 50,000-record save: on a shared machine the minimum is
# the figure least disturbed by other processes. Usage: compare.sh bench-before bench-after
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${RUNS:-7}"
declare -A cpu wall
uptime
for _ in $(seq "$RUNS"); do
    for b in "$@"; do
        line=$("$b" Schemas/development.yaml | head -1)
        cpu[$b]="${cpu[$b]:-} $(echo "$line" | grep -o 'CPU [0-9.]* s' | awk '{print $2}')"
        wall[$b]="${wall[$b]:-} $(echo "$line" | grep -o 'batches of 400: [0-9.]* s' | awk '{print $4}')"
    done
done
stats() { echo $1 | tr ' ' '\n' | sort -n | awk -v what="$2" '{a[NR]=$1} END {printf "%s min %.3f s, median %.3f s (%.0f records/s at the min)", what, a[1], a[int((NR+1)/2)], 50000/a[1]}'; }
for b in "$@"; do
    echo "$b: $(stats "${cpu[$b]}" "save CPU"); $(stats "${wall[$b]}" "wall") ($RUNS runs)"
done
uptime
