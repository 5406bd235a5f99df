#!/usr/bin/env bash
# Provisions (once, cached) the official Python client's own test suite (python-scrapinghub's
# tests/client and tests/hubstorage) and a venv that runs it: `scrapinghub[msgpack]` at the
# version test/compat/python-env.sh installs, pytest and the suite's test dependencies
# (vcrpy, responses, mock, six). Prints
#   SCRAPINGHUB_SUITE_PYTHON=<venv>/bin/python
#   SCRAPINGHUB_SUITE_DIR=<a folder holding tests/client and tests/hubstorage>
# for test/compat/scrapinghub-test-suite.test.ts. When python3 / venv / pip are missing, an
# install fails or the suite cannot be found: prints one line `skipped: <why>` and exits 3.
#
# Where the suite comes from, first that has tests/client and tests/hubstorage:
#   1. SCRAPINGHUB_TESTS_DIR (a checkout of the python-scrapinghub repository);
#   2. the client's PyPI sdist at the installed version (`pip download --no-binary :all:`);
#   3. $CRAWLHUB_CACHE/python-scrapinghub-tests (a copy of the repository's tests/ put there
#      by hand: the sdists published so far (2.0.0 to 2.9.0) leave those folders out).
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$HERE/venv-lib.sh"

CLIENTS="$(bash "$HERE/python-env.sh")" || { echo "$CLIENTS" | tail -n 1; exit 3; }
CLIENTS_PY="${CLIENTS#PYTHON_CLIENTS=}"
VERSION="$("$CLIENTS_PY" -c 'from importlib.metadata import version; print(version("scrapinghub"))' 2>/dev/null)" \
  || skip "cannot read the scrapinghub version of $CLIENTS_PY"

venv_init "scrapinghub-suite-$VERSION" \
  "import scrapinghub, msgpack, pytest, vcr, responses, mock, six; from importlib.metadata import version; assert version('scrapinghub') == '$VERSION'"
if ! venv_ready; then
  venv_install 3.10 "scrapinghub $VERSION / pytest / vcrpy / responses / mock" \
    "scrapinghub[msgpack]==$VERSION" pytest vcrpy responses mock six
fi

has_suite() { [ -d "$1/tests/client" ] && [ -d "$1/tests/hubstorage" ] && [ -f "$1/tests/conftest.py" ]; }

SUITE=""
if [ -n "${SCRAPINGHUB_TESTS_DIR:-}" ]; then
  has_suite "$SCRAPINGHUB_TESTS_DIR" || skip "SCRAPINGHUB_TESTS_DIR=$SCRAPINGHUB_TESTS_DIR has no tests/client and tests/hubstorage"
  SUITE="$SCRAPINGHUB_TESTS_DIR"
fi

SDIST_DIR="$CACHE/scrapinghub-sdist-$VERSION"
if [ -z "$SUITE" ]; then
  if [ ! -d "$SDIST_DIR" ]; then
    TMP="$(mktemp -d "${TMPDIR:-/tmp}/crawlhub-sdist.XXXXXX")"
    if "$PY" -m pip download --disable-pip-version-check --no-input -q "scrapinghub==$VERSION" \
         --no-binary :all: --no-deps -d "$TMP" >/dev/null 2>&1; then
      mkdir -p "$SDIST_DIR" && tar xzf "$TMP"/scrapinghub-*.tar.gz -C "$SDIST_DIR" --strip-components=1
    fi
    rm -rf "$TMP"
  fi
  has_suite "$SDIST_DIR" && SUITE="$SDIST_DIR"
fi

if [ -z "$SUITE" ]; then
  has_suite "$CACHE/python-scrapinghub-tests" && SUITE="$CACHE/python-scrapinghub-tests"
fi

[ -n "$SUITE" ] || skip "the scrapinghub $VERSION sdist has no tests/client and tests/hubstorage; set SCRAPINGHUB_TESTS_DIR to a python-scrapinghub checkout (or copy its tests/ to $CACHE/python-scrapinghub-tests/tests)"

echo "SCRAPINGHUB_SUITE_PYTHON=$PY"
echo "SCRAPINGHUB_SUITE_DIR=$SUITE"
