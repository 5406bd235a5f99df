#!/usr/bin/env bash
# Installs (once, cached) the official Python client `scrapinghub` (+ msgpack, so the
# client reads msgpack) into a venv and prints `PYTHON_CLIENTS=<venv>/bin/python`.
# When python3 / venv / pip are missing or the install fails: prints one line
# `skipped: <why>` and exits 3. Re-running is fast once installed.
set -u

CACHE="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
VENV="$CACHE/pyclients"
PY="$VENV/bin/python"
CHECK='import scrapinghub, msgpack; from scrapinghub.hubstorage import HubstorageClient'

skip() { echo "skipped: $*"; exit 3; }

if [ -x "$PY" ] && "$PY" -c "$CHECK" >/dev/null 2>&1; then
  echo "PYTHON_CLIENTS=$PY"
  exit 0
fi

command -v python3 >/dev/null 2>&1 || skip "python3 not found"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 8) else 1)' 2>/dev/null || skip "python3 older than 3.8"
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || skip "python3 venv/ensurepip module missing (apt-get install python3-venv)"

LOG="$(mktemp "${TMPDIR:-/tmp}/crawlhub-pyclients.XXXXXX")"
trap 'rm -f "$LOG"' EXIT

mkdir -p "$CACHE" || skip "cannot create $CACHE"
if [ ! -x "$PY" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV" >"$LOG" 2>&1 || { rm -rf "$VENV"; skip "python3 -m venv failed: $(tail -n 1 "$LOG")"; }
fi
"$PY" -m pip --version >/dev/null 2>&1 || { rm -rf "$VENV"; skip "pip not available in the venv"; }

"$PY" -m pip install --disable-pip-version-check --no-input -q scrapinghub msgpack >"$LOG" 2>&1 \
  || skip "pip install scrapinghub msgpack failed: $(grep -v '^\s*$' "$LOG" | tail -n 1)"
"$PY" -c "$CHECK" >"$LOG" 2>&1 || skip "scrapinghub import failed after install: $(tail -n 1 "$LOG")"

echo "PYTHON_CLIENTS=$PY"
