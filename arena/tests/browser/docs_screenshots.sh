#!/usr/bin/env bash
# Regenerates docs/screenshots/replay.png and report.png from real pages: a three-seat
# Closest to 555 match (the replay page at its first sideshow, with both hand values) and the demo tournament's
# report. Needs node, /usr/bin/chromium and a release build (made here); takes about a minute.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
cargo build --release --workspace --bins
arena="$root/target/release/arena"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$arena" match --game closest-555 --hands 20 --seed 3 \
  --bot target/release/montecarlo-bot --bot target/release/random-bot \
  --bot "python3 sample-bots/python/strength_bot.py" --replay "$tmp/match.jsonl" >/dev/null
"$arena" replay html "$tmp/match.jsonl" -o "$tmp/match.html"
"$arena" tournament tournaments/demo.toml --out "$tmp/demo" -q >/dev/null
"$arena" report "$tmp/demo" -o "$tmp/report.html"

mkdir -p docs/screenshots
cd arena/tests/browser
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
node screenshot.js "$tmp/match.html" "$root/docs/screenshots/replay.png" 1280x800 until:sideshow_compared
node screenshot.js "$tmp/report.html" "$root/docs/screenshots/report.png" 1280x800
ls -l "$root/docs/screenshots"
