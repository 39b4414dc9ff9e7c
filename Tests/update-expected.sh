#!/bin/sh
# Rewrites every golden `.expected` fixture from what the built binary prints now, then shows
# what changed, for review. Rerun it after a change of output format, or after merging a
# branch whose new fixtures were written in an older format (docs/output.md).
#
#   Tests/update-expected.sh            # build, rewrite, show the diff's size
#   Tests/update-expected.sh --skip-build
#
# The golden tests honour CKSCHEMA_UPDATE_EXPECTED=1 (Tests/CKSchemaTests/Support/TestSupport.swift,
# `expectMatchesFixture`): each writes its output into its `.expected` file and then compares,
# so this run passes; the review is `git diff Tests/Fixtures`. Expected text written inside
# test sources (RendererTests, PromoteCLITests, ...) is not rewritten: the normal run that
# follows names each of them.
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--skip-build" ]; then swift build --build-tests; fi
# The suites of every test file that calls expectMatchesFixture.
suites=$(grep -l 'expectMatchesFixture(' Tests/CKSchemaTests/*/*.swift | grep -v /Support/ \
    | xargs sed -n 's/^@Suite[^s]*struct \([A-Za-z0-9_]*\).*/\1/p' | sort -u | paste -sd'|' -)
CKSCHEMA_UPDATE_EXPECTED=1 CKSCHEMA_SKIP_PLUGIN_TESTS=1 swift test --skip-build --filter "$suites" >/dev/null || true
git diff --stat -- Tests/Fixtures
echo "review with: git diff -- Tests/Fixtures; then run: CKSCHEMA_SKIP_PLUGIN_TESTS=1 swift test --skip-build"
