# shellcheck shell=bash
# What test/infra/kafka.sh and test/infra/mongodb.sh share: the pid file, the temp data dir,
# `start` up to the launch, `stop`, `status`, the Maven fetch and the argument dispatch.
# Sourced (not run) right after `set -euo pipefail`; the script then sets
#
#   SERVER_NAME    kafka | mongodb: the log prefix (<name>.sh: ...) and the temp data dir
#                  name (crawlhub-<name>-<port>.XXXXXX, the only dirs cleanup_stale removes)
#   PORT, RUN_DIR  the server's port on $HOST and the dir of its pid and data files
#   PID_FILE       holds the server's pid
#   DATA_FILE      holds the path of the temp data dir
#   LIB_DIR        where maven_fetch puts the jars
#   STOP_TIMEOUT   seconds `stop` waits after SIGTERM before SIGKILL
#   ADDRESS_LINE   what `start` prints on stdout (and `status` after "running (pid N)"),
#                  e.g. KAFKA_BROKERS=127.0.0.1:39092
#
# defines require_tools (ends with `skip` (exit 3) when something is missing) and launch
# (called by `start` when nothing runs on PORT: fetch, start the process with its pid in
# PID_FILE, wait until it serves, log "started ..."; returns non-zero on failure), and
# ends with `server_main "$@"`.
# Exit codes: 0 ok, 1 failure, 2 usage, 3 skipped.

HOST="127.0.0.1"
CACHE_ROOT="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"

log() { echo "$SERVER_NAME.sh: $*" >&2; }

skip() { # reason -> "skipped: reason" on stdout, exit 3
  echo "skipped: $*"
  exit 3
}

apt_install_once() { # package finder-function -> installs the Debian package unless the finder finds its binary
  local package="$1" finder="$2" failed="$CACHE_ROOT/$1/apt-failed" out
  "$finder" >/dev/null && return 0
  [ -z "${CRAWLHUB_NO_APT:-}" ] || skip "$package not installed (CRAWLHUB_NO_APT set: no apt-get)"
  mkdir -p "$(dirname "$failed")"
  # A failed install is remembered for a day, so benches do not retry it every run.
  if [ -f "$failed" ] && [ -n "$(find "$failed" -mmin -1440 2>/dev/null)" ]; then
    skip "$package not installed; apt-get failed within the last day: $(tail -n 1 "$failed") (rm $failed to retry)"
  fi
  command -v apt-get >/dev/null 2>&1 || skip "$package not installed and no apt-get"
  [ "$(id -u)" = 0 ] || skip "$package not installed and apt-get needs root"
  log "installing $package with apt-get (first run only)..."
  if ! out=$( { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "$package"; } 2>&1 ); then
    echo "$out" | tail -n 5 >"$failed"
    skip "apt-get install $package failed: $(tail -n 1 "$failed")"
  fi
  "$finder" >/dev/null || skip "apt-get installed $package but no $package binary found"
}

require_commands() { # purpose command... -> skips unless every command is on PATH
  local purpose="$1" missing=() c
  shift
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || missing+=("$c")
  done
  [ "${#missing[@]}" -eq 0 ] || skip "${missing[*]} not found on PATH ($purpose)"
}

port_open() { # port -> 0 if something accepts TCP connections on 127.0.0.1:port
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

running_pid() { # prints the server's pid if it is alive
  [ -f "$PID_FILE" ] || return 1
  local pid; pid=$(cat "$PID_FILE" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

make_data_dir() { # -> DATA_DIR: a fresh temp dir for this run, recorded in DATA_FILE
  DATA_DIR=$(mktemp -d "${TMPDIR:-/tmp}/crawlhub-$SERVER_NAME-$PORT.XXXXXX")
  echo "$DATA_DIR" >"$DATA_FILE"
}

cleanup_stale() { # removes the files of a server that is no longer running
  if [ -f "$DATA_FILE" ]; then
    local dir; dir=$(cat "$DATA_FILE" 2>/dev/null || true)
    case "$dir" in
      */"crawlhub-$SERVER_NAME-"*) rm -rf "$dir" ;;
    esac
    rm -f "$DATA_FILE"
  fi
  rm -f "$PID_FILE"
}

maven_fetch() { # artifact-id groupId:artifactId:version... -> the runtime jars of those in LIB_DIR
  local artifact="$1" dep deps="" g a v
  shift
  for dep in "$@"; do
    IFS=: read -r g a v <<<"$dep"
    deps+="    <dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"$'\n'
  done
  local work; work=$(mktemp -d)
  cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>crawlhub.test</groupId>
  <artifactId>$artifact</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
$deps  </dependencies>
</project>
EOF
  rm -rf "$LIB_DIR.tmp"; mkdir -p "$LIB_DIR.tmp"
  if ! mvn -q -B -f "$work/pom.xml" "$DEP_PLUGIN:copy-dependencies" \
        -DincludeScope=runtime -DoutputDirectory="$LIB_DIR.tmp" >"$work/mvn.log" 2>&1; then
    log "maven failed:"; tail -n 40 "$work/mvn.log" >&2
    rm -rf "$work" "$LIB_DIR.tmp"
    return 1
  fi
  rm -rf "$LIB_DIR"; mv "$LIB_DIR.tmp" "$LIB_DIR"
  touch "$LIB_DIR/.complete"
  rm -rf "$work"
}

abort_start() { # message file... -> logs the message and the files' last lines, stops the server
  log "$1; last lines:"
  shift
  tail -n 30 "$@" >&2 2>/dev/null || true
  cmd_stop >/dev/null 2>&1 || true
}

cmd_start() {
  require_tools
  mkdir -p "$RUN_DIR"
  local pid
  if pid=$(running_pid); then
    log "already running (pid $pid)"
    echo "$ADDRESS_LINE"
    return 0
  fi
  cleanup_stale
  if port_open "$PORT"; then
    log "port $PORT on $HOST is already in use by another process"; return 1
  fi
  launch
  echo "$ADDRESS_LINE"
}

cmd_stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 $(( STOP_TIMEOUT * 4 ))); do   # up to STOP_TIMEOUT s for a clean shutdown
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.25
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.2
    fi
    log "stopped (pid $pid)"
  fi
  cleanup_stale
}

cmd_status() {
  local pid
  if pid=$(running_pid); then
    echo "running (pid $pid) $ADDRESS_LINE"
  else
    echo "not running"
    return 1
  fi
}

server_main() { # start|stop|status
  case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
  esac
}
