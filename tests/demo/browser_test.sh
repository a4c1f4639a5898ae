#!/usr/bin/env bash
# Opens the demo page in headless Chromium and checks, in the browser, that
# every image decoded (naturalWidth > 0) and every table has data rows; saves
# a screenshot. Exit 77 (CTest: skipped) when Chromium is not installed.
# Usage: browser_test.sh PATH/index.html SCREENSHOT.png
set -euo pipefail
page="$1" shot="$2"
browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ]; then
  echo "SKIPPED: chromium is not installed (Debian: apt-get install chromium); the demo page was not opened in a browser"
  exit 77
fi
[ -s "$page" ] || { echo "FAILED: $page does not exist (run the demo.quick_cpu test first)"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A copy of the page with a checker that writes its findings into the DOM
# (the page itself carries no script).
checker='<script>window.addEventListener("load",function(){var imgs=Array.from(document.images);var broken=imgs.filter(function(i){return !i.complete||i.naturalWidth===0;});var tables=Array.from(document.querySelectorAll("table"));var empty=tables.filter(function(t){return t.querySelectorAll("tr td").length===0;});var p=document.createElement("pre");p.id="demo-check";p.textContent="images="+imgs.length+" broken="+broken.length+" tables="+tables.length+" empty="+empty.length+" ";document.body.appendChild(p);});</script>'
awk -v s="$checker" '{ if (index($0, "</body>")) print s; print }' "$page" > "$work/check.html"

flags=(--headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions --user-data-dir="$work/profile")
timeout 60 "$browser" "${flags[@]}" --virtual-time-budget=5000 --dump-dom "file://$work/check.html" \
  > "$work/dom.html" 2> "$work/stderr.txt" || true
result="$(grep -o 'images=[0-9]* broken=[0-9]* tables=[0-9]* empty=[0-9]* ' "$work/dom.html" || true)"
if [ -z "$result" ]; then
  echo "FAILED: the checker's result is not in the DOM Chromium dumped; Chromium said:"
  tail -20 "$work/stderr.txt"
  exit 1
fi
echo "in Chromium: $result"
read -r images broken tables empty <<<"$(echo "$result" | sed 's/[a-z]*=//g')"
status=0
[ "$broken" -eq 0 ] || { echo "FAILED: $broken image(s) did not load"; status=1; }
[ "$images" -ge 7 ] || { echo "FAILED: expected at least 7 images, found $images"; status=1; }
[ "$empty" -eq 0 ] || { echo "FAILED: $empty table(s) without data rows"; status=1; }
[ "$tables" -ge 7 ] || { echo "FAILED: expected at least 7 tables, found $tables"; status=1; }

timeout 60 "$browser" "${flags[@]}" --hide-scrollbars --window-size=1200,4000 --screenshot="$shot" \
  "file://$(cd "$(dirname "$page")" && pwd)/$(basename "$page")" > /dev/null 2>&1 || true
if [ -s "$shot" ]; then echo "screenshot: $shot"; else echo "FAILED: no screenshot written to $shot"; status=1; fi
exit $status
