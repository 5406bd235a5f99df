#!/usr/bin/env bash
# Installs (once, cached) shub 2.18.1, the Scrapy Cloud command line client, from PyPI into
# a venv of its own and prints `SHUB=<venv>/bin/shub` (test/compat/shub-deploy.test.ts runs
# it against crawlhub: deploy, schedule, items, log). shub builds the project's egg with
# the Python it runs on, so the venv has setuptools too. When python3 / venv / pip are
# missing or the install fails: prints one line `skipped: <why>` and exits 3.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/venv-lib.sh"

venv_init shub-2.18.1 'import shub, setuptools; assert shub.__version__ == "2.18.1", shub.__version__'
if ! { [ -x "$VENV/bin/shub" ] && venv_ready; }; then
  venv_install 3.9 'shub 2.18.1' shub==2.18.1 setuptools
  [ -x "$VENV/bin/shub" ] || skip "shub installed no shub script"
fi

echo "SHUB=$VENV/bin/shub"
