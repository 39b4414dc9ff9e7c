#!/usr/bin/env bash
# Issue 36 points 5 and 6: what an app's first build with CKSchemaLint attached costs in each
# form, and the plugin tests' time.
#   bash Benchmarks/plugins/run.sh [BIN]     BIN: the ckschema the binary form bundles
#                                            (default .build/debug/ckschema; build it first)
# Each form: a scratch consumer (one target, the repository's ckschema.yaml and Schemas/),
# `swift build` into an empty scratch folder, timed with /usr/bin/time (wall, user + sys).
# Then `swift test --skip-build --filter 'PluginTests|ArtifactBundleTests'`, timed the same way.
# SKIP_SOURCE=1 leaves out the source form (it compiles ckschema: minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/.build/debug/ckschema}"
work="${TMPDIR:-/tmp}/ckschema-plugin-bench"
rm -rf "$work"
mkdir -p "$work"
case "$(uname -m)" in aarch64|arm64) flag=--linux-aarch64 ;; *) flag=--linux-x86_64 ;; esac

timed() { # timed LABEL COMMAND...: one line, wall and CPU seconds
  local label="$1"; shift
  local t="$work/time"
  /usr/bin/time -f '%e %U %S' -o "$t" "$@" > "$work/$label.log" 2>&1 || { echo "$label: failed, see $work/$label.log"; tail -20 "$work/$label.log"; return 1; }
  read -r wall user sys < "$t"
  printf '%-28s wall %7.1f s   CPU %7.1f s (user %.1f + sys %.1f)   load %s\n' "$label" "$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
}

consumer() { # consumer FOLDER PACKAGE-FOLDER PACKAGE-NAME
  mkdir -p "$1/App/Sources/M"
  cat > "$1/App/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "App", dependencies: [.package(path: "../$2")],
    targets: [.target(name: "M", plugins: [.plugin(name: "CKSchemaLint", package: "$3")])])
MANIFEST
  echo 'public struct T {}' > "$1/App/Sources/M/T.swift"
  cp "$root/ckschema.yaml" "$1/App/"
  cp -R "$root/Schemas" "$1/App/"
}

# The binary form: BinaryPlugins/ with a local bundle of BIN.
"$root/scripts/artifact-bundle.sh" "$work/bundle" "$flag" "$bin" > /dev/null 2>&1
mkdir -p "$work/binary/ckschema-plugins"
cp -R "$work/bundle/ckschema.artifactbundle" "$work/binary/ckschema-plugins/"
ln -s "$root/BinaryPlugins/Plugins" "$work/binary/ckschema-plugins/Plugins"
sed 's|\.binaryTarget(name: "CKSchemaBinary", url: release.url, checksum: release.checksum)|.binaryTarget(name: "CKSchemaBinary", path: "ckschema.artifactbundle")|' \
  "$root/BinaryPlugins/Package.swift" > "$work/binary/ckschema-plugins/Package.swift"
consumer "$work/binary" ckschema-plugins ckschema-plugins
(cd "$work/binary/App" && timed "binary form, first build" swift build --scratch-path "$work/binary/scratch")
if grep -q 'Compiling CKSchema' "$work/binary form, first build.log"; then echo "error: the binary form compiled ckschema"; exit 1; fi

if [ "${SKIP_SOURCE:-0}" != 1 ]; then
  mkdir -p "$work/source"
  ln -s "$root" "$work/source/ckschema"
  consumer "$work/source" ckschema ckschema
  (cd "$work/source/App" && timed "source form, first build" swift build --scratch-path "$work/source/scratch")
fi

(cd "$root" && timed "plugin tests (--skip-build)" swift test --skip-build --filter 'PluginTests|ArtifactBundleTests')
