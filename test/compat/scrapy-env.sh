#!/usr/bin/env bash
# Installs (once, cached) Scrapy and `scrapinghub-entrypoint-scrapy` (sh_scrapy, the
# original platform's own Scrapy entry point: it writes the FIFO line protocol itself
# when SHUB_FIFO_PATH is set) into a venv of its own and prints
# `SCRAPY_PYTHON=<venv>/bin/python`. When python3 / venv / pip are missing or the install
# fails: prints one line `skipped: <why>` and exits 3. Re-running is fast once installed.
set -u

CACHE="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
VENV="$CACHE/scrapy"
PY="$VENV/bin/python"
CHECK='import scrapy, sh_scrapy.crawl, sh_scrapy.writer'

skip() { echo "skipped: $*"; exit 3; }

if [ -x "$PY" ] && [ -x "$VENV/bin/start-crawl" ] && "$PY" -c "$CHECK" >/dev/null 2>&1; then
  echo "SCRAPY_PYTHON=$PY"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || skip "python3 not found"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' 2>/dev/null || skip "python3 older than 3.9"
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || skip "python3 venv/ensurepip module missing (apt-get install python3-venv)"

LOG="$(mktemp "${TMPDIR:-/tmp}/crawlhub-scrapy.XXXXXX")"
trap 'rm -f "$LOG"' EXIT

mkdir -p "$CACHE" || skip "cannot create $CACHE"
if [ ! -x "$PY" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV" >"$LOG" 2>&1 || { rm -rf "$VENV"; skip "python3 -m venv failed: $(tail -n 1 "$LOG")"; }
fi
"$PY" -m pip --version >/dev/null 2>&1 || { rm -rf "$VENV"; skip "pip not available in the venv"; }

"$PY" -m pip install --disable-pip-version-check --no-input -q scrapy scrapinghub-entrypoint-scrapy >"$LOG" 2>&1 \
  || skip "pip install scrapy scrapinghub-entrypoint-scrapy failed: $(grep -v '^\s*$' "$LOG" | tail -n 1)"
"$PY" -c "$CHECK" >"$LOG" 2>&1 || skip "scrapy / sh_scrapy import failed after install: $(tail -n 1 "$LOG")"
[ -x "$VENV/bin/start-crawl" ] || skip "sh_scrapy installed no start-crawl script"

echo "SCRAPY_PYTHON=$PY"
