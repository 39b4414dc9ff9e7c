#!/usr/bin/env bash
# A release binary of ckschema in dist/ (or the folder given), with its SHA-256:
#   Linux: the Swift runtime and Foundation linked statically (--static-swift-stdlib), so
#          the binary runs without a Swift toolchain; checked: ldd shows no libswift*.
#          libyaml and SQLite stay shared system libraries (libyaml-0-2, libsqlite3-0).
#   macOS: one universal binary for arm64 and x86_64; checked with lipo.
# and the binary plugins' release (docs/integrations.md, BinaryPlugins/):
#   ckschema.artifactbundle.zip and its .checksum (scripts/artifact-bundle.sh): this host's
#          binary, and the other platforms' from the paths in CKSCHEMA_LINUX_X86_64,
#          CKSCHEMA_LINUX_AARCH64 and CKSCHEMA_MACOS_UNIVERSAL (each built by this script on
#          its own machine: a host builds only its own). A variant not given is left out of
#          info.json and named on stderr as missing.
#   ckschema-plugins/: BinaryPlugins/ to publish as the ckschema-plugins package, its links
#          replaced by the plugin sources and its binaryTarget set to the bundle's URL
#          (CKSCHEMA_RELEASE_URL, else this version's GitHub release) and checksum.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
version="$(grep -o '"[0-9][0-9.]*"' Sources/CKSchemaModel/Support/Version.swift | head -1 | tr -d '"')"

case "$(uname -s)" in
  Linux)
    flags=(-c release --product ckschema --static-swift-stdlib)
    swift build "${flags[@]}"
    bin="$(swift build "${flags[@]}" --show-bin-path)/ckschema"
    if ldd "$bin" | grep -q 'libswift'; then
      echo "error: $bin links the Swift runtime dynamically:" >&2
      ldd "$bin" >&2
      exit 1
    fi
    name="ckschema-$version-linux-$(uname -m)"
    case "$(uname -m)" in
      x86_64) host_variant=--linux-x86_64 ;;
      aarch64|arm64) host_variant=--linux-aarch64 ;;
      *) echo "error: no artifact bundle variant for Linux on $(uname -m)" >&2; exit 2 ;;
    esac
    ;;
  Darwin)
    flags=(-c release --product ckschema --arch arm64 --arch x86_64)
    swift build "${flags[@]}"
    bin="$(swift build "${flags[@]}" --show-bin-path)/ckschema"
    archs="$(lipo -archs "$bin")"
    case "$archs" in
      *arm64*x86_64*|*x86_64*arm64*) ;;
      *) echo "error: $bin is not universal (architectures: $archs)" >&2; exit 1 ;;
    esac
    name="ckschema-$version-macos-universal"
    host_variant=--macos-universal
    ;;
  *)
    echo "error: release builds are made on Linux and macOS, not $(uname -s)" >&2
    exit 2
    ;;
esac

mkdir -p "$out/$name"
cp "$bin" "$out/$name/ckschema"
# Debug symbols are most of the Linux binary (79 MB -> 60 MB measured).
if [ "$(uname -s)" = Linux ] && command -v strip >/dev/null; then strip "$out/$name/ckschema"; fi
"$out/$name/ckschema" completion bash > "$out/$name/ckschema.bash"
"$out/$name/ckschema" completion zsh > "$out/$name/_ckschema"
"$out/$name/ckschema" completion fish > "$out/$name/ckschema.fish"
"$out/$name/ckschema" man > "$out/$name/ckschema.1"
tar -czf "$out/$name.tar.gz" -C "$out" "$name"
if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
(cd "$out" && "${sum[@]}" "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
"$out/$name/ckschema" --version

# The artifact bundle: this host's binary (just built and stripped), the others as given.
given=()
for pair in "--linux-x86_64:${CKSCHEMA_LINUX_X86_64:-}" "--linux-aarch64:${CKSCHEMA_LINUX_AARCH64:-}" "--macos-universal:${CKSCHEMA_MACOS_UNIVERSAL:-}"; do
  flag="${pair%%:*}" path="${pair#*:}"
  if [ "$flag" = "$host_variant" ]; then given+=("$flag" "$out/$name/ckschema")
  elif [ -n "$path" ]; then given+=("$flag" "$path"); fi
done
url="${CKSCHEMA_RELEASE_URL:-https://github.com/ckschema/ckschema/releases/download/$version/ckschema.artifactbundle.zip}"
scripts/artifact-bundle.sh "$out" "${given[@]}" --release-url "$url"
