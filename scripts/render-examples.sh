#!/usr/bin/env bash
# Re-renders the SVG of every machine in examples/ next to its source, with the tool itself.
# Usage: scripts/render-examples.sh [path-to-machine-viz]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/machine-viz}
[ -x "$bin" ] || swift build --product machine-viz
find examples -name '*.swift' -not -path '*/PluginSample/*' | sort | while read -r file; do
    "$bin" render "$file" --format svg --output-dir "$(dirname "$file")"
done
# the trace drawing of the README tour
"$bin" render examples/tca/VoiceMemos.swift --machine RecordingFeature.phase \
    --trace data_dependent_target:askingPermission/permissionResponse --format svg -o examples/tca/RecordingFeature.phase.trace.svg
