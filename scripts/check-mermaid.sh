#!/usr/bin/env bash
# Renders .mmd files with the real Mermaid (mermaid.min.js) in headless Chromium and fails when one
# does not parse. Prints, per file, OK or ERR and the text Mermaid drew (to check escaping by eye).
#
#   MERMAID_JS=/path/to/mermaid.min.js scripts/check-mermaid.sh [FILE.mmd ...]
#
# Defaults to the golden files and docs/example. mermaid.min.js is not fetched from a CDN: take it
# from a package that ships it, e.g. the PyPI wheel artoo-mermaid
# (pip download artoo-mermaid --no-deps --python-version 3.12 --only-binary=:all:, then unzip;
# it is artoo_mermaid/assets/mermaid.min.js). Needs python3 and Chromium.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
: "${MERMAID_JS:?set MERMAID_JS to a mermaid.min.js}"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "error: Chromium not found" >&2; exit 2; }
if [ $# -eq 0 ]; then set -- "$root"/Tests/MachineRenderingTests/Golden/*.mmd "$root"/docs/example/*.mmd; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$MERMAID_JS" "$work/mermaid.min.js"
python3 - "$work/harness.html" "$@" <<'PY'
import json, os, sys
out, files = sys.argv[1], sys.argv[2:]
sources = {os.path.join(os.path.basename(os.path.dirname(f)), os.path.basename(f)): open(f, encoding="utf-8").read() for f in files}
page = """<!DOCTYPE html><html><head><meta charset="utf-8"><script src="mermaid.min.js"></script></head>
<body><pre id="out">pending</pre><div id="d"></div><script>
const sources = %s;
mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
(async () => { const lines = []; let i = 0;
  for (const [name, src] of Object.entries(sources)) {
    try { const {svg} = await mermaid.render('g' + (i++), src);
      const div = document.createElement('div'); div.innerHTML = svg; document.getElementById('d').appendChild(div);
      const texts = [...new Set([...div.querySelectorAll('.nodeLabel, .edgeLabel, text')].map(e => e.textContent.trim()).filter(t => t))];
      lines.push('OK  ' + name + ' :: ' + texts.join(' | '));
    } catch (e) { lines.push('ERR ' + name + ' :: ' + (e.message || e)); }
  }
  document.getElementById('out').textContent = lines.join('\\n'); })();
</script></body></html>""" % json.dumps(sources)
open(out, "w", encoding="utf-8").write(page)
PY
"$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile" --virtual-time-budget=20000 \
    --dump-dom "file://$work/harness.html" 2>/dev/null > "$work/dom.html"
python3 - "$work/dom.html" <<'PY'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
text = html.unescape(m.group(1)) if m else "ERR no result"
print(text)
sys.exit(1 if ("ERR" in text.split()[:1] or "\nERR " in text or text.startswith("ERR") or text == "pending") else 0)
PY
