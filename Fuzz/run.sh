#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + AddressSanitizer) and runs each for a bounded time.
#
#   Fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (default: 60 s, every target)
#
# Seeds come from Tests/Fixtures (and Schemas/, Migrations/); each target's corpus grows in
# Fuzz/.corpus/TARGET (not committed) and a crash, leak or timeout is written to
# Fuzz/.artifacts/. Exit status: 0 nothing found, 1 a target found something, 2 the
# toolchain cannot build fuzz targets (the caller decides whether that is a skip), 3 the
# targets do not build (a defect: the library's API moved under them).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(FuzzYAMLLint FuzzYAMLEvents FuzzCKDB FuzzRecords FuzzMigration FuzzFmt FuzzCktoolOutput FuzzCoreData FuzzPredicate FuzzSwift FuzzScan FuzzPlist)

# Does this toolchain link libFuzzer? (Xcode's Swift does not; swift.org's on Linux does.)
probe="$(mktemp -d)"
printf '@_cdecl("LLVMFuzzerTestOneInput") public func f(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int32 { 0 }\n' > "$probe/p.swift"
if ! swiftc -sanitize=fuzzer,address -parse-as-library "$probe/p.swift" -o "$probe/p" >/dev/null 2>&1; then
  echo "fuzz: skipped: this Swift toolchain cannot build with -sanitize=fuzzer (use the swift.org toolchain)"
  rm -rf "$probe"
  exit 2
fi
rm -rf "$probe"

echo "fuzz: building the targets"
# A build that fails is a failure even when binaries of an earlier build are still there: those
# would fuzz old code and report nothing found.
log="$(mktemp)"
if swift build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address >"$log" 2>&1; then built=1; else built=0; fi
grep -v "Cannot export local symbol" "$log" | grep -E "error|Compiling|Build complete" || true
rm -f "$log"
[ "$built" = 1 ] || { echo "fuzz: the targets did not build"; exit 3; }
bin="Fuzz/.build/debug"
# The toolchain can build fuzzers (the probe above), so a target that does not build is a
# defect of ours, never a skip: exit 3.
for t in "${targets[@]}"; do [ -x "$bin/$t" ] || { echo "fuzz: $t did not build"; exit 3; }; done

seed() {  # seed TARGET: the corpus folder, filled from the fixtures the first time
  local t="$1" dir="Fuzz/.corpus/$1"
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir")" ] && { echo "$dir"; return; }
  case "$t" in
    FuzzYAMLLint|FuzzFmt|FuzzYAMLEvents)
      find Tests/Fixtures Schemas -name '*.yaml' ! -path '*/store/*' -exec cp {} "$dir/" \; 2>/dev/null
      for f in "$dir"/*.yaml; do mv "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
    FuzzCKDB)
      find Tests/Fixtures -name '*.ckdb' | while read -r f; do cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
    FuzzRecords)
      # One record a seed: NDJSON lines, and the JSON files whole.
      find Tests/Fixtures -name '*.ndjson' | while read -r f; do
        split -l 1 -a 4 "$f" "$dir/$(basename "$f" .ndjson)-"
      done
      find Tests/Fixtures -name '*.json' -size -64k -exec cp {} "$dir/" \; ;;
    FuzzCktoolOutput)
      printf '%s\n' '✅ Schema is valid.' > "$dir/valid"
      printf '%s\n' '❌ Schema validation failed: Encountered " <IDENTIFIER> "BADTYPE "" at line 6, column 25. Was expecting one of:' > "$dir/refused"
      printf '%s\n' "Error: endpoint not applicable in the environment 'production'" > "$dir/production" ;;
    FuzzMigration)
      find Tests/Fixtures/store Migrations -name '*.yaml' | while read -r f; do cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
    FuzzCoreData)
      find Tests/Fixtures -path '*.xcdatamodel/contents' | while read -r f; do cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
    FuzzPredicate)
      # Every predicate of the fixtures' subscriptions and queries, one a seed.
      grep -rhoE "predicate: \"[^\"]*\"" Tests/Fixtures --include='*.yaml' | sed 's/^predicate: "//; s/"$//' | sort -u | while read -r p; do
        printf '%s' "$p" > "$dir/$(printf '%s' "$p" | sha1sum | cut -c1-16)"
      done ;;
    FuzzSwift|FuzzScan)
      find Tests/Fixtures/swift -name '*.swift' | while read -r f; do cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
    FuzzPlist)
      # Every entitlements file and Info.plist of the fixtures and the example app (XML and binary).
      find Tests/Fixtures App \( -name '*.entitlements' -o -name '*Info.plist' -o -name '*.bplist' \) | while read -r f; do cp "$f" "$dir/$(sha1sum "$f" | cut -c1-16)"; done ;;
  esac
  # The inputs that crashed a reader once (issue #24), kept as seeds for good.
  [ -d "Fuzz/Seeds/$t" ] && cp Fuzz/Seeds/"$t"/* "$dir/"
  echo "$dir"
}

dict() {
  case "$1" in
    FuzzYAMLLint|FuzzFmt|FuzzYAMLEvents) echo Fuzz/Dictionaries/yaml.dict ;;
    FuzzCKDB) echo Fuzz/Dictionaries/ckdb.dict ;;
    FuzzRecords) echo Fuzz/Dictionaries/records.dict ;;
    FuzzMigration) echo Fuzz/Dictionaries/migration.dict ;;
    FuzzCktoolOutput) echo Fuzz/Dictionaries/cktool.dict ;;
    FuzzCoreData) echo Fuzz/Dictionaries/coredata.dict ;;
    FuzzPredicate) echo Fuzz/Dictionaries/predicate.dict ;;
    FuzzSwift|FuzzScan) echo Fuzz/Dictionaries/swift.dict ;;
    FuzzPlist) echo Fuzz/Dictionaries/plist.dict ;;
  esac
}

status=0
mkdir -p Fuzz/.artifacts
for t in "${targets[@]}"; do
  corpus="$(seed "$t")"
  echo "fuzz: $t for ${seconds}s ($(ls "$corpus" | wc -l) inputs in $corpus)"
  # Each input: at most 10 s and 2 GB; inputs up to 64 KB (the readers' bounds are tested
  # at full size in the test suite and Benchmarks/).
  # SWIFT_BACKTRACE off: Swift's crash handler trips AddressSanitizer and hides the report.
  if ! SWIFT_BACKTRACE=enable=no "$bin/$t" "$corpus" -dict="$(dict "$t")" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=65536 -artifact_prefix="Fuzz/.artifacts/$t-" -print_final_stats=1 2>"Fuzz/.artifacts/$t.log"; then
    echo "fuzz: $t FOUND A PROBLEM; see Fuzz/.artifacts/$t.log and Fuzz/.artifacts/$t-*"
    grep -E "ERROR|Fatal error|Precondition|SUMMARY|panic|==[0-9]+==" "Fuzz/.artifacts/$t.log" | head -5
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov:" "Fuzz/.artifacts/$t.log" | tail -3 | tr '\n' ' '
    echo
  fi
done
exit $status
