#!/usr/bin/env bash
# A release binary of ckschema in dist/ (or the folder given), with its SHA-256:
#   Linux: the Swift runtime and Foundation linked statically (--static-swift-stdlib), so
#          the binary runs without a Swift toolchain; checked: ldd shows no libswift*.
#          libyaml and SQLite stay shared system libraries (libyaml-0-2, libsqlite3-0).
#   macOS: one universal binary for arm64 and x86_64; checked with lipo.
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
