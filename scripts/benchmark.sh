#!/usr/bin/env bash
# Release-build benchmark (docs/benchmark.md): every figure of issue 10 from one run, on the folders
# given (default: a generated corpus) and the bundled examples. Takes many minutes the first time
# (swift-syntax in release).
#   scripts/benchmark.sh [--repeat N] [FOLDER…]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product machine-viz-bench
swift build -c release --product machine-viz
.build/release/machine-viz-bench --examples examples "$@"
