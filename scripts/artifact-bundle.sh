#!/usr/bin/env bash
# The SwiftPM artifact bundle of ckschema, for the binary plugins (BinaryPlugins/, docs/integrations.md):
#   scripts/artifact-bundle.sh OUT [--linux-x86_64 BIN] [--linux-aarch64 BIN] [--macos-universal BIN] [--release-url URL]
# writes
#   OUT/ckschema.artifactbundle/info.json             schemaVersion 1.0, artifact `ckschema`, type executable
#   OUT/ckschema.artifactbundle/ckschema-V-VARIANT/bin/ckschema   one per binary given
#   OUT/ckschema.artifactbundle.zip                   what `.binaryTarget(url:checksum:)` downloads
#   OUT/ckschema.artifactbundle.zip.checksum          `swift package compute-checksum` of the zip
#   OUT/ckschema-plugins/     with --release-url: BinaryPlugins/ to publish as the ckschema-plugins
#                             package, its links replaced by the plugin sources and its
#                             binaryTarget set to URL (where the zip is uploaded) and the checksum
# Format: https://github.com/swiftlang/swift-evolution/blob/main/proposals/0305-swiftpm-binary-target-improvements.md
# info.json names exactly the binaries in the zip: a variant not given is left out and reported
# on stderr ("missing: ..."), never named. Each binary is checked to be what its variant says
# (an ELF executable for that machine; a Mach-O universal binary) before it is copied.
# Exit: 0 the bundle is written (with every variant, or with the ones reported missing);
#       2 it could not be: bad arguments, no binary, a binary that is not what its flag says.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: scripts/artifact-bundle.sh OUT [--linux-x86_64 BIN] [--linux-aarch64 BIN] [--macos-universal BIN] [--release-url URL]"
fail() { echo "error: artifact bundle: $*" >&2; exit 2; }

[ $# -ge 1 ] || fail "no output folder; $usage"
out="$1"; shift
linux_x86_64="" linux_aarch64="" macos_universal="" url=""
while [ $# -gt 0 ]; do
  case "$1" in
    --linux-x86_64|--linux-aarch64|--macos-universal)
      [ $# -ge 2 ] && [ -n "$2" ] || fail "$1 needs the path of a ckschema binary; $usage"
      case "$1" in
        --linux-x86_64) linux_x86_64="$2" ;;
        --linux-aarch64) linux_aarch64="$2" ;;
        --macos-universal) macos_universal="$2" ;;
      esac
      shift 2 ;;
    --release-url)
      [ $# -ge 2 ] && [[ "$2" == https://*.zip ]] || fail "--release-url needs the https URL the zip is published at, ending in .zip; $usage"
      [[ "$2" != *[\"\\\|\&]* ]] || fail "--release-url $2: a URL with a quote, backslash, | or & cannot be written into Package.swift here"
      url="$2"
      shift 2 ;;
    *) fail "unknown argument '$1'; $usage" ;;
  esac
done
version="$(grep -o '"[0-9][0-9.]*"' "$root/Sources/CKSchemaModel/Support/Version.swift" | head -1 | tr -d '"')"
[ -n "$version" ] || fail "no version in Sources/CKSchemaModel/Support/Version.swift"

# The first 20 bytes as hex pairs: the ELF magic, class and machine (e_machine at 18, little-endian),
# or the Mach-O universal magic.
header() { od -An -tx1 -N20 -v "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
check() { # check FLAG PATH KIND
  local flag="$1" bin="$2" kind="$3" h
  [ -f "$bin" ] || fail "$flag $bin: no such file"
  [ -x "$bin" ] || fail "$flag $bin: not executable (chmod +x it, or give the ckschema binary)"
  h="$(header "$bin")"
  case "$kind" in
    elf-x86_64) [[ "$h" == "7f 45 4c 46 02 "*" 3e 00" ]] || fail "$flag $bin: not a 64-bit x86_64 ELF executable (its first bytes: $h)" ;;
    elf-aarch64) [[ "$h" == "7f 45 4c 46 02 "*" b7 00" ]] || fail "$flag $bin: not a 64-bit aarch64 ELF executable (its first bytes: $h)" ;;
    macho-universal)
      [[ "$h" == "ca fe ba be "* ]] || fail "$flag $bin: not a Mach-O universal binary (its first bytes: $h); build it with scripts/build-release.sh on macOS"
      if command -v lipo >/dev/null; then
        case "$(lipo -archs "$bin")" in
          *arm64*x86_64*|*x86_64*arm64*) ;;
          *) fail "$flag $bin: a universal binary without both arm64 and x86_64 ($(lipo -archs "$bin"))" ;;
        esac
      fi ;;
  esac
}

# Every binary given is checked before anything is written.
[ -n "$linux_x86_64$linux_aarch64$macos_universal" ] || fail "no binary given; $usage"
[ -z "$linux_x86_64" ] || check --linux-x86_64 "$linux_x86_64" elf-x86_64
[ -z "$linux_aarch64" ] || check --linux-aarch64 "$linux_aarch64" elf-aarch64
[ -z "$macos_universal" ] || check --macos-universal "$macos_universal" macho-universal

bundle="$out/ckschema.artifactbundle"
rm -rf "$bundle" "$bundle.zip" "$bundle.zip.checksum"
mkdir -p "$bundle"
variants=()
missing=0
add() { # add FLAG PATH DIR TRIPLES...
  local flag="$1" bin="$2" dir="ckschema-$version-$3"; shift 3
  local triples
  triples="$(printf '"%s", ' "$@")"; triples="${triples%, }"
  if [ -z "$bin" ]; then
    echo "missing: $dir: no binary given ($flag PATH); the bundle has no variant for $*" >&2
    missing=$((missing + 1))
    return
  fi
  mkdir -p "$bundle/$dir/bin"
  cp "$bin" "$bundle/$dir/bin/ckschema"
  chmod 755 "$bundle/$dir/bin/ckschema"
  variants+=("        { \"path\": \"$dir/bin/ckschema\", \"supportedTriples\": [$triples] }")
  echo "variant: $dir/bin/ckschema ($*)"
}
add --linux-x86_64 "$linux_x86_64" linux-x86_64 x86_64-unknown-linux-gnu
add --linux-aarch64 "$linux_aarch64" linux-aarch64 aarch64-unknown-linux-gnu
add --macos-universal "$macos_universal" macos-universal arm64-apple-macosx x86_64-apple-macosx

{
  echo '{'
  echo '  "schemaVersion": "1.0",'
  echo '  "artifacts": {'
  echo '    "ckschema": {'
  echo "      \"version\": \"$version\","
  echo '      "type": "executable",'
  echo '      "variants": ['
  for i in "${!variants[@]}"; do
    if [ "$i" -lt $((${#variants[@]} - 1)) ]; then echo "${variants[$i]},"; else echo "${variants[$i]}"; fi
  done
  echo '      ]'
  echo '    }'
  echo '  }'
  echo '}'
} > "$bundle/info.json"

# The same binaries give the same zip (and checksum): fixed times, no extra attributes, sorted.
find "$bundle" -exec touch -h -d '1980-01-02 00:00:00 UTC' {} +
if command -v zip >/dev/null; then
  (cd "$out" && find ckschema.artifactbundle | LC_ALL=C sort | zip -qX -@ ckschema.artifactbundle.zip)
else
  (cd "$out" && python3 -m zipfile -c ckschema.artifactbundle.zip ckschema.artifactbundle)
fi
if command -v swift >/dev/null; then
  checksum="$(swift package compute-checksum "$bundle.zip")"
elif command -v sha256sum >/dev/null; then
  checksum="$(sha256sum "$bundle.zip" | cut -d' ' -f1)"   # what compute-checksum computes
else
  checksum="$(shasum -a 256 "$bundle.zip" | cut -d' ' -f1)"
fi
echo "$checksum" > "$bundle.zip.checksum"
echo "$bundle.zip"
echo "checksum: $checksum"
if [ "$missing" -gt 0 ]; then
  echo "warning: the bundle has ${#variants[@]} of 3 variants; $missing missing (above): give them to publish it" >&2
fi

# The binary plugins' package, ready to publish beside the bundle.
if [ -n "$url" ]; then
  plugins="$out/ckschema-plugins"
  rm -rf "$plugins"
  mkdir -p "$plugins"
  cp -RL "$root/BinaryPlugins/Package.swift" "$root/BinaryPlugins/Plugins" "$plugins/"
  sed -i.orig -e "s|^    url: \".*\",\$|    url: \"$url\",|" -e "s|^    checksum: \".*\"\$|    checksum: \"$checksum\"|" "$plugins/Package.swift"
  rm -f "$plugins/Package.swift.orig"
  if ! grep -qF "    checksum: \"$checksum\"" "$plugins/Package.swift" || ! grep -qF "    url: \"$url\"," "$plugins/Package.swift"; then
    fail "could not set the release's url and checksum in $plugins/Package.swift"
  fi
  echo "$plugins: binaryTarget $url, checksum $checksum"
fi
