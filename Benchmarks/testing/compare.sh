#!/usr/bin/env bash
# Runs FakeCloudKit bench binaries (kept by `BENCH_OUT=path bash Benchmarks/testing/bench.sh`,
# one per commit) alternately RUNS times (default 7) and prints, for each, the minimum and the
# median CPU time of the 50,000-record save: on a shared machine the minimum is the figure least
# disturbed by other processes. Usage: compare.sh bench-before bench-after
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${RUNS:-7}"
declare -A times
uptime
for _ in $(seq "$RUNS"); do
    for b in "$@"; do
        t=$("$b" Schemas/development.yaml | grep -o 'CPU [0-9.]* s' | head -1 | awk '{print $2}')
        times[$b]="${times[$b]:-} $t"
    done
done
for b in "$@"; do
    echo "$b: $(echo ${times[$b]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {printf "save CPU min %.3f s, median %.3f s (%d runs): %.0f records per CPU-second at the min", a[1], a[int((NR+1)/2)], NR, 50000/a[1]}')"
done
uptime
