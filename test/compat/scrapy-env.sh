#!/usr/bin/env bash
# Installs (once, cached) Scrapy, `scrapinghub-entrypoint-scrapy` (sh_scrapy, the
# original platform's own Scrapy entry point: it writes the FIFO line protocol itself
# when SHUB_FIFO_PATH is set) and `scrapy-zyte-smartproxy` (the proxy's official Scrapy
# middleware, for test/compat/scrapy-smartproxy.test.ts) into a venv of its own and prints
# `SCRAPY_PYTHON=<venv>/bin/python`. When python3 / venv / pip are missing or the install
# fails: prints one line `skipped: <why>` and exits 3. Re-running is fast once installed.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/venv-lib.sh"

venv_init scrapy 'import scrapy, sh_scrapy.crawl, sh_scrapy.writer, scrapy_zyte_smartproxy'
if ! { [ -x "$VENV/bin/start-crawl" ] && venv_ready; }; then
  venv_install 3.9 'scrapy / sh_scrapy / scrapy_zyte_smartproxy' scrapy scrapinghub-entrypoint-scrapy scrapy-zyte-smartproxy
  [ -x "$VENV/bin/start-crawl" ] || skip "sh_scrapy installed no start-crawl script"
fi

echo "SCRAPY_PYTHON=$PY"
