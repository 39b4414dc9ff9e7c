#!/usr/bin/env bash
# FakeCloudKit's speed in a release build without the test target (whose release build takes
# most of an hour on a loaded 2-core machine): builds the CKSchemaTesting target and its
# dependencies in release, links bench.swift (the same measurement as
# FakeCloudKitBenchmarkTests.speed) against their objects, and runs it RUNS times.
# SCRATCH (default .build) is the build folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCRATCH="${SCRATCH:-.build}"
uptime
swift build -c release --target CKSchemaTesting --scratch-path "$SCRATCH"
REL="$SCRATCH/release"
OUT="$(mktemp -d)"
# "$REL/" (a symlink to the triple's folder: find does not follow a starting symlink without
# the slash); the -tool.build folders are the host copies built for the plugins (the same
# symbols twice).
objects=$(find "$REL/" -path '*/CKSchema*.build/*.o' ! -path '*-tool.build/*' ! -path '*CKSchemaTests*' ! -path '*/ckschema.build/*')
swiftc -O -swift-version 5 -I "$REL/Modules" -I Sources/CSQLite -I Sources/CYAML \
    -module-name FakeCloudKitBench Benchmarks/testing/bench.swift $objects -lsqlite3 -lyaml -o "$OUT/bench" 2>&1 | grep -v '^$' || true
# BENCH_OUT=path keeps the linked binary (for Benchmarks/testing/compare.sh).
if [ -n "${BENCH_OUT:-}" ]; then cp "$OUT/bench" "$BENCH_OUT"; fi
# Each run's CPU time (user + sys) and wall time beside its figures: the machine is shared.
for i in $(seq "${RUNS:-3}"); do
    TIMEFORMAT="run $i: wall %R s, user %U s, sys %S s"
    time "$OUT/bench" Schemas/development.yaml
done
uptime
