#!/usr/bin/env bash
# Installs (once, cached) trafilatura, the peer the extraction bench runs on the same pages,
# into a venv of its own and prints `TRAFILATURA_PYTHON=<venv>/bin/python`. When python3 /
# venv / pip are missing or the install fails: prints one line `skipped: <why>` and exits 3
# (the bench then says so and leaves trafilatura out). Re-running is fast once installed.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../test/compat/venv-lib.sh"

venv_init trafilatura 'import trafilatura, sys; sys.exit(trafilatura.__version__ != "2.3.1")'
if ! venv_ready; then
  venv_install 3.8 'trafilatura' 'trafilatura==2.3.1' lxml_html_clean
fi

echo "TRAFILATURA_PYTHON=$PY"
