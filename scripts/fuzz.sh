#!/usr/bin/env bash
# Fuzzes extraction + analysis + rendering with libFuzzer (Linux, Swift 6 toolchain).
#
#   scripts/fuzz.sh RUNS [libFuzzer options…]     e.g. scripts/fuzz.sh 1000000
#   scripts/fuzz.sh --max-time SECONDS [libFuzzer options…]
#   scripts/fuzz.sh --build-only                  builds the target and prints its path
#   MACHINE_VIZ_FUZZ_SYNTAX_BUILD=/path/to/.build/release scripts/fuzz.sh 1000000
#   scripts/fuzz.sh 500000 -jobs=2 -workers=2      two processes of 500000 inputs each, logs in
#                                                  .build-fuzz/fuzz-0.log and fuzz-1.log
#
# Builds the fuzz target into .build-fuzz/: machine-viz's own modules (MachineModel, MachineAnalysis,
# MachineExtraction, MachineRendering, GraphvizRendering) and Fuzz/Sources/MachineVizFuzz are compiled
# with `swiftc -O -sanitize=fuzzer` (coverage-guided on machine-viz's code), and linked with the
# swift-syntax objects of the normal debug build (.build/debug, built first by `swift build`; not
# instrumented, swift-syntax is fuzzed upstream). So it never touches the normal build, and CI pays
# only for compiling machine-viz's modules once more.
#
# The debug swift-syntax parser makes the target slow (a few inputs per second). For long runs, set
# MACHINE_VIZ_FUZZ_SYNTAX_BUILD to the bin folder of a release build of this package (or of any
# package with the same swift-syntax version, e.g. `swift build -c release` → .build/release): its
# swift-syntax objects and modules are linked instead, and `swift build` is not run. Then it seeds a corpus from examples/, the
# conformance cases (../shared/conformance/cases, when present) and Fuzz/Regressions/, and runs the
# target for RUNS inputs (or SECONDS). Every input found to crash, hang (-timeout, default 20 s) or
# break a property (see Fuzz/Sources/MachineVizFuzz/FuzzTarget.swift) is saved to
# .build-fuzz/artifacts/ and the script exits non-zero. Inputs that reached new code are kept in
# .build-fuzz/corpus/ between runs. Figures and findings: docs/reliability.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

budget=()
buildOnly=false
case "${1:-}" in
    --max-time) budget=(-max_total_time="${2:?seconds}"); shift 2 ;;
    --build-only) buildOnly=true; shift ;;
    ''|-*) echo "usage: scripts/fuzz.sh RUNS|--max-time SECONDS|--build-only [libFuzzer options…]" >&2; exit 2 ;;
    *) budget=(-runs="$1"); shift ;;
esac

scratch="$root/.build-fuzz"
if [ -n "${MACHINE_VIZ_FUZZ_SYNTAX_BUILD:-}" ]; then
    syntaxBuild=$(cd "$MACHINE_VIZ_FUZZ_SYNTAX_BUILD" && pwd -P)
    build="$scratch/build-$(basename "$syntaxBuild")"
else
    swift build >&2
    syntaxBuild=$(swift build --show-bin-path)
    build="$scratch/build"
fi
# the package's checkouts are beside the triple folder (.build/checkouts next to .build/x86_64-…/debug)
checkouts="$(dirname "$(dirname "$syntaxBuild")")/checkouts"
if [ ! -d "$checkouts/swift-syntax" ]; then checkouts="$root/.build/checkouts"; fi
for module in SwiftSyntax SwiftParser; do
    if [ ! -e "$syntaxBuild/Modules/$module.swiftmodule" ] || [ -z "$(ls "$syntaxBuild/$module.build/"*.o 2>/dev/null)" ]; then
        echo "fuzz: $syntaxBuild has no complete $module build (objects and Modules/$module.swiftmodule)" >&2
        exit 2
    fi
done
echo "fuzz: swift-syntax from $syntaxBuild" >&2
mkdir -p "$build"
flags=(-swift-version 6 -O -wmo -parse-as-library -sanitize=fuzzer -I "$build" -I "$syntaxBuild/Modules"
       -Xcc -fmodule-map-file="$root/Sources/CGraphviz/module.modulemap"
       -Xcc -fmodule-map-file="$checkouts/swift-syntax/Sources/_SwiftSyntaxCShims/include/module.modulemap")
for module in MachineModel MachineAnalysis MachineExtraction MachineRendering GraphvizRendering; do
    echo "fuzz: compiling $module" >&2
    swiftc "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$build/$module.swiftmodule" \
        -c -o "$build/$module.o" $(find "Sources/$module" -name '*.swift' | sort)
done
syntax=()
for module in SwiftSyntax SwiftSyntax509 SwiftSyntax510 SwiftSyntax600 SwiftSyntax601 SwiftSyntax602 SwiftSyntax603 \
              _SwiftSyntaxCShims SwiftDiagnostics SwiftBasicFormat SwiftParser SwiftParserDiagnostics SwiftOperators; do
    if [ -d "$syntaxBuild/$module.build" ]; then syntax+=("$syntaxBuild/$module.build"/*.o); fi
done
binary="$build/MachineVizFuzz"
echo "fuzz: linking $binary" >&2
swiftc "${flags[@]}" -module-name MachineVizFuzz -o "$binary" Fuzz/Sources/MachineVizFuzz/FuzzTarget.swift \
    "$build"/Machine*.o "$build"/GraphvizRendering.o "${syntax[@]}" -lgvc -lcgraph -lcdt

if $buildOnly; then echo "$binary"; exit 0; fi

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

# Swift's own crash backtracer would take the signal of a failed property (`fatalError`) first and end
# the process before libFuzzer saves the input: leave the signal to libFuzzer.
export SWIFT_BACKTRACE=enable=no
# libFuzzer writes the logs of `-jobs=N` workers (fuzz-0.log, …) to the working folder
cd "$scratch"
exec "$binary" "${budget[@]}" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$scratch/artifacts/" "$@" "$scratch/corpus" "$seeds"
