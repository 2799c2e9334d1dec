#!/usr/bin/env bash
# Fuzzes extraction + analysis + rendering with libFuzzer (Linux, Swift 6 toolchain).
#
#   scripts/fuzz.sh RUNS [libFuzzer options…]     e.g. scripts/fuzz.sh 1000000
#   scripts/fuzz.sh --max-time SECONDS [libFuzzer options…]
#
# Builds Fuzz/ (a package of its own, never part of the normal build) in release mode with
# -sanitize=fuzzer into .build-fuzz/, seeds a corpus from examples/, the conformance cases
# (../shared/conformance/cases, when present) and Fuzz/Regressions/, and runs the target for RUNS
# inputs (or SECONDS). Every input found to crash, hang (-timeout, default 20 s) or break a property
# (see Fuzz/Sources/MachineVizFuzz/FuzzTarget.swift) is saved to .build-fuzz/artifacts/ and the
# script exits non-zero. Inputs that reached new code are kept in .build-fuzz/corpus/ between runs.
# Figures and findings of the long runs: docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

budget=()
case "${1:-}" in
    --max-time) budget=(-max_total_time="${2:?seconds}"); shift 2 ;;
    ''|-*) echo "usage: scripts/fuzz.sh RUNS|--max-time SECONDS [libFuzzer options…]" >&2; exit 2 ;;
    *) budget=(-runs="$1"); shift ;;
esac

scratch="$root/.build-fuzz"
swift build -c release --package-path Fuzz --scratch-path "$scratch" --product MachineVizFuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library >&2
binary="$scratch/release/MachineVizFuzz"

seeds="$scratch/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$scratch/corpus" "$scratch/artifacts"
i=0
while IFS= read -r file; do
    i=$((i + 1))
    cp "$file" "$seeds/$(printf '%04d' "$i")-$(basename "$file")"
done < <({ find examples Fuzz/Regressions -name '*.swift' -not -path '*/.build*' 2>/dev/null
           if [ -d ../shared/conformance/cases ]; then find ../shared/conformance/cases -name '*.swift'; fi; } | sort)
echo "fuzz: $i seed files; corpus in $scratch/corpus" >&2

exec "$binary" "${budget[@]}" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$scratch/artifacts/" "$@" "$scratch/corpus" "$seeds"
