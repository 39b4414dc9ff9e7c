#!/usr/bin/env bash
# Reading property lists adds nothing measurable to a scan (issue 34, "Speed"): one generated
# app (Benchmarks/scan/generate.py) scanned with and without its property lists, a release build,
# hyperfine. The app with them has, in each of 20 target folders, an .entitlements (XML), an
# Info.plist (XML) and, in every other folder, a binary Info.plist, as an app with extensions,
# widgets and a watch app has; the same Swift files, byte for byte, without them (Benchmarks/RESULTS.md).
#   Benchmarks/scan/plists.sh [FILES]   (default 2,000 Swift files)
#   SCRATCH=/tmp/ckschema-release      (the release build's own folder, so a debug build's lock is not waited on)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${TMPDIR:-/tmp}/ckschema-plist-bench
scratch=${SCRATCH:-$root/.build}
rm -rf "$work"
python3 "$root/Benchmarks/scan/generate.py" "$work/with/App" "${1:-2000}"
python3 - "$work/with/App" <<'PY'
import os, plistlib, sys
app = sys.argv[1]
files = sorted(f for f in os.listdir(app) if f.endswith(".swift"))
for t in range(20):
    folder = os.path.join(app, f"Target{t}")
    os.makedirs(folder, exist_ok=True)
    # Move a share of the Swift files into each target folder, so the folders hold code too.
    for f in files[t::20][:len(files) // 40]:
        os.rename(os.path.join(app, f), os.path.join(folder, f))
    ent = {"com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.Bench"],
           "com.apple.developer.icloud-services": ["CloudKit"],
           "aps-environment": "development"}
    info = {"CFBundleIdentifier": f"com.example.Bench.t{t}", "CKSharingSupported": True,
            "UIBackgroundModes": ["remote-notification"],
            "UIApplicationSceneManifest": {"UIApplicationSupportsMultipleScenes": False}}
    with open(os.path.join(folder, f"Target{t}.entitlements"), "wb") as f: plistlib.dump(ent, f, fmt=plistlib.FMT_XML)
    with open(os.path.join(folder, "Info.plist"), "wb") as f: plistlib.dump(info, f, fmt=plistlib.FMT_XML)
    nested = os.path.join(folder, "Resources")
    os.makedirs(nested, exist_ok=True)
    with open(os.path.join(nested, "Info.plist"), "wb") as f: plistlib.dump(info, f, fmt=plistlib.FMT_BINARY)
PY
# The same tree without a property list.
cp -r "$work/with" "$work/without"
find "$work/without" \( -name '*.entitlements' -o -name 'Info.plist' \) -delete
cp "$work/with/schema.yaml" "$work/without/schema.yaml" 2>/dev/null || true
echo "with: $(find "$work/with/App" -name '*.swift' | wc -l) Swift files, $(find "$work/with/App" \( -name '*.entitlements' -o -name 'Info.plist' \) | wc -l) property lists"
echo "without: $(find "$work/without/App" -name '*.swift' | wc -l) Swift files, $(find "$work/without/App" \( -name '*.entitlements' -o -name 'Info.plist' \) | wc -l) property lists"
(cd "$root" && swift build -c release --product ckschema --scratch-path "$scratch" >/dev/null)
bin="$scratch/release/ckschema"
# The two scans find the same calls; the one with lists may add CK92x findings (none here).
(cd "$work/with" && "$bin" scan App --schema schema.yaml | tail -1) || true
(cd "$work/without" && "$bin" scan App --schema schema.yaml | tail -1) || true
hyperfine -N -w 2 -r "${RUNS:-15}" -i \
  -n with-plists "$bin scan $work/with/App --schema $work/with/schema.yaml" \
  -n without-plists "$bin scan $work/without/App --schema $work/without/schema.yaml"
