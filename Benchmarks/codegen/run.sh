#!/bin/sh
# The codegen benchmark (issue 21): `ckschema generate swift` on a 2,000-type schema, end to end
# (target: under 0.5 s; a first generation, and regenerations over the previous output), and `swiftc -typecheck` of the generated code against the stub SDK
# (target: under 60 s). Rerun from the repository root: Benchmarks/codegen/run.sh
# Needs: swift build -c release, python3, hyperfine, /usr/bin/time.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v hyperfine >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine; }
(cd "$root" && swift build -c release --product ckschema >/dev/null)
bin="$root/.build/release/ckschema"
uptime
work=${TMPDIR:-/tmp}/ckschema-bench-codegen
rm -rf "$work" && mkdir -p "$work/sdk"
python3 "$root/Benchmarks/codegen/generate.py" 2000 20 > "$work/schema.yaml"
echo "schema: $(grep -c '^  Type' "$work/schema.yaml") record types, $(grep -c '^      field' "$work/schema.yaml") fields"

# Three cases (docs/codegen.md, "Speed"): a first generation into an absent folder (every file
# is created), a regeneration after a one-type change (one field of Type7 alternates between
# bytes and string: one file is rewritten, the other 2,000 are hard links), and a regeneration
# that changes nothing (nothing is written).
cp "$work/schema.yaml" "$work/a.yaml"
sed '/^  Type7:$/,/^  Type8:$/ s/field3: .*/field3: string/' "$work/a.yaml" > "$work/b.yaml"
toggle="sh -c 'if cmp -s $work/schema.yaml $work/a.yaml; then cp $work/b.yaml $work/schema.yaml; else cp $work/a.yaml $work/schema.yaml; fi'"
"$bin" generate swift "$work/schema.yaml" -o "$work/out" >/dev/null
hyperfine --warmup 1 --runs 10 -N --export-markdown "$work/generate.md" \
  --command-name "first generation (absent folder)" --prepare "rm -rf $work/fresh" "$bin generate swift $work/schema.yaml -o $work/fresh" \
  --command-name "regeneration, one type changed" --prepare "$toggle" "$bin generate swift $work/schema.yaml -o $work/out" \
  --command-name "regeneration, nothing changed" --prepare true "$bin generate swift $work/schema.yaml -o $work/out"
cat "$work/generate.md"
cp "$work/a.yaml" "$work/schema.yaml"
rm -rf "$work/fresh"
echo "first generation:"; /usr/bin/time -v "$bin" generate swift "$work/schema.yaml" -o "$work/fresh" 2>&1 | grep -E 'Elapsed|User time|System time|Maximum resident'
cp "$work/b.yaml" "$work/schema.yaml"
echo "one type changed:"; /usr/bin/time -v "$bin" generate swift "$work/schema.yaml" -o "$work/fresh" 2>&1 | grep -E 'Elapsed|User time|System time|Maximum resident'
echo "nothing changed:"; /usr/bin/time -v "$bin" generate swift "$work/schema.yaml" -o "$work/fresh" 2>&1 | grep -E 'Elapsed|User time|System time|Maximum resident'
cp "$work/a.yaml" "$work/schema.yaml"
echo "generated: $(ls "$work/out" | wc -l) files, $(cat "$work"/out/*.swift | wc -l) lines"

sdk="$root/Tests/Fixtures/codegen/sdk"
swiftc -swift-version 6 -parse-as-library -emit-module -module-name CoreLocation "$sdk/CoreLocation.swift" -emit-module-path "$work/sdk/CoreLocation.swiftmodule"
swiftc -swift-version 6 -parse-as-library -emit-module -module-name CloudKit -I "$work/sdk" "$sdk/CloudKit.swift" -emit-module-path "$work/sdk/CloudKit.swiftmodule"
# One frontend for the 2,001 files (-wmo), as the target is stated: without it the driver starts
# a frontend per file, each loading the SDK modules and parsing every other file's declarations
# again, which measures the driver's set-up more than the generated code.
echo "swiftc -typecheck -wmo of the generated code:"
/usr/bin/time -v swiftc -swift-version 6 -parse-as-library -typecheck -wmo -I "$work/sdk" "$work"/out/*.swift 2>&1 | grep -E 'Elapsed|User time|System time|Maximum resident|error' | head -6
uptime
