#!/usr/bin/env bash
# Re-renders the SVG of every machine in examples/ next to its source, and docs/example, with the tool itself.
# Usage: scripts/render-examples.sh [path-to-machine-viz]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/machine-viz}
[ -x "$bin" ] || swift build --product machine-viz
find examples -name '*.swift' -not -path '*/PluginSample/*' | sort | while read -r file; do
    "$bin" render "$file" --format svg --output-dir "$(dirname "$file")"
done
# docs/example: every example machine with its page, and every finding's trace drawn (the README
# tour shows some); DocsCommandTests.testTheCommittedExampleDocsAreCurrent fails when it is stale
"$bin" docs examples --exclude examples/PluginSample --output-dir docs/example --title "machine-viz examples" --traces
