#!/usr/bin/env bash
# Generates the documentation folder for examples/ and photographs its index.html in
# headless Chromium, to check that the page renders offline (relative SVGs, no scripts, no CDN).
#
#   scripts/screenshot-docs.sh                 # writes docs/example/ and docs/docs-index.png
#   scripts/screenshot-docs.sh OUT_DIR PNG     # elsewhere
#
# Needs a debug build (swift build) and Chromium: apt-get update && apt-get install -y chromium
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-docs/example}"
png="${2:-docs/docs-index.png}"
cd "$root"

binary=".build/debug/machine-viz"
[ -x "$binary" ] || { echo "error: $binary is missing; run swift build first" >&2; exit 2; }
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "error: Chromium not found (apt-get install -y chromium)" >&2; exit 2; }

# Relative input paths keep the generated files the same on every machine.
"$binary" docs examples --exclude examples/PluginSample --output-dir "$out" --title "machine-viz examples" --traces --quiet

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: Chromium refuses to run as root (containers, CI) with its sandbox on.
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" --window-size=1200,1800 \
    --screenshot="$root/$png" "file://$root/$out/index.html" 2>/dev/null
echo "wrote $png from $out/index.html"
