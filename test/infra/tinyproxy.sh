#!/usr/bin/env bash
# tinyproxy from Debian, the second reference proxy of `npm run bench:proxy`.
#
#   bash test/infra/tinyproxy.sh start    # prints TINYPROXY_PROXY=http://127.0.0.1:<port>
#   bash test/infra/tinyproxy.sh status
#   bash test/infra/tinyproxy.sh stop     # idempotent
#
# Installed once with apt-get when missing (a failed install is remembered for a day in
# ${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}/tinyproxy/apt-failed). Each start writes a
# minimal config in a fresh temp dir (127.0.0.1 only, clients from 127.0.0.1, CONNECT to
# any port, no Via header, log level Critical) and runs it in the foreground (-d).
#
# Environment: CRAWLHUB_NO_APT (set: never apt-get, skip when missing), TINYPROXY_PORT (default 39129).
# Exit codes: 0 ok, 1 failure, 2 usage, 3 skipped (not installable here).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/server-lib.sh"   # HOST, CACHE_ROOT, log, cmd_start/stop/status...

SERVER_NAME="tinyproxy"
RUN_DIR="$CACHE_ROOT/tinyproxy/run"
PORT="${TINYPROXY_PORT:-39129}"
PID_FILE="$RUN_DIR/tinyproxy-$PORT.pid"
DATA_FILE="$RUN_DIR/tinyproxy-$PORT.dir"
STOP_TIMEOUT=10
ADDRESS_LINE="TINYPROXY_PROXY=http://$HOST:$PORT"

tinyproxy_bin() {
  command -v tinyproxy 2>/dev/null || { [ -x /usr/bin/tinyproxy ] && echo /usr/bin/tinyproxy; } || return 1
}

require_tools() { apt_install_once tinyproxy tinyproxy_bin; }

write_config() { # dir
  local dir="$1" user=""
  if [ "$(id -u)" = 0 ]; then user=$'User nobody\nGroup nogroup'; chmod 777 "$dir"; fi
  cat >"$dir/tinyproxy.conf" <<CONF
$user
Port $PORT
Listen $HOST
Timeout 600
MaxClients 1024
LogFile "$dir/tinyproxy.log"
LogLevel Critical
PidFile "$dir/tinyproxy.pid"
Allow 127.0.0.1
DisableViaHeader Yes
CONF
}

launch() {
  local bin; bin=$(tinyproxy_bin)
  make_data_dir
  write_config "$DATA_DIR"
  "$bin" -d -c "$DATA_DIR/tinyproxy.conf" >"$DATA_DIR/console.log" 2>&1 &
  echo $! >"$PID_FILE"
  for _ in $(seq 1 40); do   # up to 10 s
    if port_open "$PORT"; then
      log "started $("$bin" -v | head -n 1) on $HOST:$PORT (pid $(cat "$PID_FILE"))"
      return 0
    fi
    if ! running_pid >/dev/null; then
      abort_start "tinyproxy exited at start" "$DATA_DIR/console.log" "$DATA_DIR/tinyproxy.log"
      return 1
    fi
    sleep 0.25
  done
  abort_start "tinyproxy did not listen on $HOST:$PORT within 10 s" "$DATA_DIR/console.log" "$DATA_DIR/tinyproxy.log"
  return 1
}

server_main "$@"
