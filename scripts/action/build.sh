#!/usr/bin/env bash
# The action's build step (when the cache has no binary): a release build of ckschema,
# from this action's own checkout or from the ref given as the action's `version` input,
# copied to ~/.ckschema/bin, which the next run restores from the cache.
set -euo pipefail
bin_dir="${CKSCHEMA_BIN_DIR:-$HOME/.ckschema/bin}"
src="${GITHUB_ACTION_PATH:?set by the runner to the folder of this action}"
if [ -n "${CKSCHEMA_VERSION:-}" ]; then
  src="$(mktemp -d)/ckschema"
  git clone --quiet --depth 1 --branch "$CKSCHEMA_VERSION" https://github.com/ckschema/ckschema "$src"
fi
swift build --package-path "$src" -c release --product ckschema
mkdir -p "$bin_dir"
cp "$(swift build --package-path "$src" -c release --show-bin-path)/ckschema" "$bin_dir/ckschema"
"$bin_dir/ckschema" --version
