#!/usr/bin/env bash
# Installs (once, cached) the official Python clients `scrapinghub` (+ msgpack, so the
# client reads msgpack) and `scrapinghub-autoextract` (the extraction client) into a venv and prints `PYTHON_CLIENTS=<venv>/bin/python`.
# When python3 / venv / pip are missing or the install fails: prints one line
# `skipped: <why>` and exits 3. Re-running is fast once installed.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/venv-lib.sh"

venv_init pyclients 'import scrapinghub, msgpack, autoextract.aio; from scrapinghub.hubstorage import HubstorageClient'
if ! venv_ready; then
  venv_install 3.8 'scrapinghub and autoextract' scrapinghub msgpack scrapinghub-autoextract
fi

echo "PYTHON_CLIENTS=$PY"
