# Sourced by python-env.sh and scrapy-env.sh: a venv of their own, cached under
# $CRAWLHUB_CACHE (default ~/.cache/crawlhub), with some pip packages in it.
#
#   venv_init <name> <check>      VENV=<cache>/<name>, PY=<venv>/bin/python, CHECK=<check>
#                                 (a Python line that imports what the venv is for)
#   venv_ready                    succeeds when PY exists and runs CHECK
#   venv_install <min python3, e.g. 3.8> <what CHECK imports> <package>...
#                                 creates the venv if needed and pip-installs the packages;
#                                 returns once CHECK passes
#   skip <why>                    prints `skipped: <why>` and exits 3 (what the others do
#                                 when python3 / venv / pip are missing or an install fails)

skip() { echo "skipped: $*"; exit 3; }

venv_init() {
  CACHE="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
  VENV_NAME="$1"
  VENV="$CACHE/$1"
  PY="$VENV/bin/python"
  CHECK="$2"
}

venv_ready() {
  [ -x "$PY" ] && "$PY" -c "$CHECK" >/dev/null 2>&1
}

venv_install() {
  local min="$1" what="$2"
  shift 2
  command -v python3 >/dev/null 2>&1 || skip "python3 not found"
  python3 -c "import sys; sys.exit(0 if sys.version_info >= (${min/./, }) else 1)" 2>/dev/null || skip "python3 older than $min"
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || skip "python3 venv/ensurepip module missing (apt-get install python3-venv)"

  LOG="$(mktemp "${TMPDIR:-/tmp}/crawlhub-$VENV_NAME.XXXXXX")"
  trap 'rm -f "$LOG"' EXIT

  mkdir -p "$CACHE" || skip "cannot create $CACHE"
  if [ ! -x "$PY" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV" >"$LOG" 2>&1 || { rm -rf "$VENV"; skip "python3 -m venv failed: $(tail -n 1 "$LOG")"; }
  fi
  "$PY" -m pip --version >/dev/null 2>&1 || { rm -rf "$VENV"; skip "pip not available in the venv"; }

  "$PY" -m pip install --disable-pip-version-check --no-input -q "$@" >"$LOG" 2>&1 \
    || skip "pip install $* failed: $(grep -v '^\s*$' "$LOG" | tail -n 1)"
  "$PY" -c "$CHECK" >"$LOG" 2>&1 || skip "$what import failed after install: $(tail -n 1 "$LOG")"
}
