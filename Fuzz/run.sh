#!/usr/bin/env bash
# Builds and runs one libFuzzer target for SECONDS; exits non-zero on any crash, leak, timeout or
# out-of-memory (libFuzzer's own status), zero when the time ran out cleanly.
#
#   Fuzz/run.sh --list              the target names
#   Fuzz/run.sh TARGET SECONDS      build, then fuzz TARGET for SECONDS
#   Fuzz/run.sh TARGET SECONDS -- LIBFUZZER_FLAGS...   (e.g. -jobs=2, -runs=N)
#
# The library targets a harness needs (its `// fuzz-modules:` line) are built by SwiftPM in release
# mode with coverage and AddressSanitizer into .build/fuzz; the harness (Fuzz/Targets/TARGET.swift plus
# Fuzz/Support/*.swift) is linked against every object that build produced. The corpus grows in
# .build/fuzz/corpus/TARGET and is seeded from the Fixtures/ paths on the harness's `// fuzz-seeds:`
# line; a crashing input is written to .build/fuzz/artifacts/. A `// fuzz-flags:` line adds libFuzzer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
targets_dir=Fuzz/Targets

if ! command -v swift >/dev/null 2>&1; then export PATH="$PATH:/opt/swift/usr/bin"; fi

list_targets() {
  for file in "$targets_dir"/*.swift; do basename "$file" .swift; done
}

if [[ ${1:-} == "--list" ]]; then list_targets; exit 0; fi
if [[ $# -lt 2 ]]; then
  echo "usage: Fuzz/run.sh --list | TARGET SECONDS [-- LIBFUZZER_FLAGS...]" >&2
  exit 64
fi
target=$1
seconds=$2
shift 2
if [[ ${1:-} == "--" ]]; then shift; fi
harness="$targets_dir/$target.swift"
[[ -f $harness ]] || { echo "fuzz: no target '$target' (try --list)" >&2; exit 64; }
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number" >&2; exit 64; }

# FUZZ_SCRATCH moves the build, corpus and artifacts (a long run beside CI's short ones).
scratch=${FUZZ_SCRATCH:-.build/fuzz}
mkdir -p "$scratch"
modules=$(sed -n 's|^// fuzz-modules: ||p' "$harness")
seeds=$(sed -n 's|^// fuzz-seeds: ||p' "$harness")
# Flags the harness itself needs (such as a smaller -max_len); the command line's come later and win.
read -r -a harness_flags <<<"$(sed -n 's|^// fuzz-flags: ||p' "$harness")"

# 1. The libraries, instrumented. SwiftPM builds one `--target` per call; later calls are incremental.
for module in $modules; do
  swift build -c release --scratch-path "$scratch" --target "$module" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -g >"$scratch/build.log" 2>&1 \
    || { cat "$scratch/build.log" >&2; echo "fuzz: building $module failed" >&2; exit 1; }
done

# 2. The harness, linked against the objects of the targets it names and everything they depend on
#    (SwiftPM's targetDependencyMap): those each target's current output file map lists (a file moved out
#    of a target leaves a stale object behind), never another target's — one built for an earlier harness
#    may predate a change to the package (a type moved to another module) and no longer link.
description="$scratch/release/description.json"
closure=$(awk -v wanted=" $modules " '
  /"targetDependencyMap"/ { inside = 1; next }
  inside && /^  }/ { exit }
  inside && /" : \[/ { gsub(/[" :\[]/, ""); current = $0; if (index(wanted, " " current " ")) print current; next }
  inside && /"/ { gsub(/[" ,]/, ""); if (index(wanted, " " current " ")) print $0 }
' "$description" | sort -u)
[[ -n $closure ]] || { echo "fuzz: no dependency map for '$modules' in $description" >&2; exit 1; }
objects=()
for module in $closure; do
  map="$scratch/release/$module.build/output-file-map.json"
  [[ -f $map ]] || continue
  while IFS= read -r object; do
    [[ -e $object ]] && objects+=("$object")
  done < <(grep -o '"object" *: *"[^"]*"' "$map" | sed 's/^"object" *: *"//; s/"$//')
done
# The harness joins the package (SwiftPM names it after the checkout's directory), so it reaches `package`
# entry points such as the cache's file decoding and the decoder's fast-path switch.
package_name=$(grep -o '"-package-name","[^"]*"' "$scratch/release.yaml" | head -n 1 | sed 's/.*,"//; s/"$//')
[[ -n $package_name ]] || { echo "fuzz: no -package-name in $scratch/release.yaml" >&2; exit 1; }
# A support file joins the harness only when every EntitlementKit module it imports is in the closure (the
# ledger's oracle is for the notification targets; the adapters' harnesses do not build the ledger).
support=()
for file in Fuzz/Support/*.swift; do
  wanted=yes
  for imported in $(sed -n 's/^import \(EntitlementKit[A-Za-z]*\)$/\1/p' "$file"); do
    grep -qx "$imported" <<<"$closure" || wanted=no
  done
  [[ $wanted == yes ]] && support+=("$file")
done
mkdir -p "$scratch/bin" "$scratch/corpus/$target" "$scratch/artifacts"
binary="$scratch/bin/fuzz-$target"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "Fuzz_${target//-/_}" -package-name "$package_name" \
  -I "$scratch/release/Modules" "$harness" "${support[@]}" "${objects[@]}" -o "$binary" 2>&1 \
  | grep -v "Cannot export local symbol" >&2 || true
[[ -x $binary ]] || { echo "fuzz: linking $target failed" >&2; exit 1; }

# 3. Fuzz. libFuzzer adds new inputs to the first corpus directory only; the seeds stay untouched.
seed_dirs=()
seed_scratch="$scratch/seeds/$target"
rm -rf "$seed_scratch" && mkdir -p "$seed_scratch"
for seed in $seeds; do
  if [[ -d $seed ]]; then cp "$seed"/* "$seed_scratch"/ 2>/dev/null || true; elif [[ -f $seed ]]; then cp "$seed" "$seed_scratch"/; fi
done
seed_dirs+=("$seed_scratch")
log="$scratch/$target.log"
echo "fuzz: $target for ${seconds}s"
set +e
# A harness that turns libFuzzer's leak checks off turns off AddressSanitizer's check at exit too.
if [[ " ${harness_flags[*]-} " == *" -detect_leaks=0 "* ]]; then
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
# Reports LeakSanitizer cannot get right in Swift, each explained in the file.
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Swift's own crash backtracer fights AddressSanitizer; libFuzzer reports crashes itself.
SWIFT_BACKTRACE=enable=no "$binary" "$scratch/corpus/$target" "${seed_dirs[@]}" \
  -dict=Fuzz/json.dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -artifact_prefix="$scratch/artifacts/$target-" -print_final_stats=1 ${harness_flags[@]+"${harness_flags[@]}"} "$@" \
  >"$log" 2>&1
status=$?
set -e
executions=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -n 1 || true)
if [[ $status -ne 0 ]]; then
  tail -n 60 "$log" >&2
  echo "fuzz: $target FAILED (status $status) after ${executions:-?} executions; input in $scratch/artifacts/" >&2
  exit 1
fi
echo "fuzz: $target ok: ${executions:-?} executions in ${seconds}s, no crash, leak or timeout"
