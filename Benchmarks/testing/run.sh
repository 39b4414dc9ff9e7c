#!/usr/bin/env bash
# FakeCloudKit's speed in process (issue 33, "Speed"): creating a fake from the Trailmark
# schema, saving 50,000 records in batches of 400, and one zone-changes fetch of 10,000
# records. Release build; the figures go to Benchmarks/RESULTS.md ("CKSchemaTesting").
set -euo pipefail
cd "$(dirname "$0")/../.."
uptime
CONFIG="${CONFIG:-release}"
swift build -c "$CONFIG" --build-tests
for i in $(seq "${RUNS:-3}"); do
    CKSCHEMA_BENCH=1 CKSCHEMA_SKIP_PLUGIN_TESTS=1 swift test -c "$CONFIG" --skip-build --filter FakeCloudKitBenchmarkTests 2>&1 | grep '^FakeCloudKit:'
done
uptime
