#!/usr/bin/env bash
# Release-build benchmark: extraction + analysis against a parse-only baseline measured in the same
# run, and layout times. Takes a few minutes the first time (swift-syntax in release).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product machine-viz-bench --scratch-path .build-release
.build-release/release/machine-viz-bench
