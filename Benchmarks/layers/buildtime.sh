#!/usr/bin/env bash
# Issue 18: the layer split must not make a clean debug build or `swift test` slower by more than
# 10%. Checks out two commits in worktrees of their own (default: 80762df, the last commit before
# the split, and 7cf5e54, the split), builds each clean into its own scratch folder, one after
# the other, then runs each one's tests RUNS times, alternating, and prints wall and CPU time
# (user + sys; steadier than wall on a shared machine) with the load average.
#
#   bash Benchmarks/layers/buildtime.sh [BEFORE [AFTER]]     RUNS=3 by default
set -euo pipefail
cd "$(dirname "$0")/../.."
before="${1:-80762df}"; after="${2:-7cf5e54}"; runs="${RUNS:-3}"
work="${TMPDIR:-/tmp}/ckschema-buildtime"
mkdir -p "$work"
for rev in "$before" "$after"; do
  [ -d "$work/$rev" ] || git worktree add --detach -f "$work/$rev" "$rev" >/dev/null
done
for rev in "$before" "$after"; do
  rm -rf "$work/$rev.build"
  echo "== clean build of $rev, load $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$work/$rev" && /usr/bin/time -f "$rev build: wall %e s, user %U s, sys %S s, peak %M KB" \
     swift build --build-tests --scratch-path "$work/$rev.build" 2>&1 | tail -1)
done
for i in $(seq "$runs"); do
  for rev in "$after" "$before"; do
    echo "== swift test of $rev, run $i, load $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$work/$rev" && CKSCHEMA_SKIP_PLUGIN_TESTS=1 /usr/bin/time -f "$rev test: wall %e s, user %U s, sys %S s" \
       swift test --skip-build --scratch-path "$work/$rev.build" 2>&1 | grep -E 'Test run with|test: wall' | tail -2)
  done
done
