#!/usr/bin/env bash
# Squid from Debian, the established reference proxy of `npm run bench:proxy`.
#
#   bash test/infra/squid.sh start    # prints SQUID_PROXY=http://127.0.0.1:<port>
#   bash test/infra/squid.sh status   # running (pid N) SQUID_PROXY=...
#   bash test/infra/squid.sh stop     # idempotent
#
# When squid is missing it is installed once with apt-get (update + install -y squid; root
# needed); a failed install is remembered for a day in
# ${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}/squid/apt-failed so benches do not retry it
# every run (delete that file to retry). Each start writes a minimal config in a fresh temp
# dir: listens on 127.0.0.1 only, no cache, no access log, clients from 127.0.0.1 only,
# CONNECT to any port, persistent connections on both sides. It runs in the foreground
# (-N, one process, so its pid is the one doing the work); stop removes the temp dir.
#
# Environment: CRAWLHUB_NO_APT (set: never apt-get, skip when missing), SQUID_PORT (default 39128).
# Exit codes: 0 ok, 1 failure, 2 usage, 3 skipped (not installable here).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/server-lib.sh"   # HOST, CACHE_ROOT, log, cmd_start/stop/status...

SERVER_NAME="squid"
RUN_DIR="$CACHE_ROOT/squid/run"
PORT="${SQUID_PORT:-39128}"
PID_FILE="$RUN_DIR/squid-$PORT.pid"
DATA_FILE="$RUN_DIR/squid-$PORT.dir"
STOP_TIMEOUT=10
ADDRESS_LINE="SQUID_PROXY=http://$HOST:$PORT"

squid_bin() {
  command -v squid 2>/dev/null || { [ -x /usr/sbin/squid ] && echo /usr/sbin/squid; } || return 1
}

require_tools() { apt_install_once squid squid_bin; }

write_config() { # dir
  local dir="$1"
  cat >"$dir/squid.conf" <<EOF
http_port $HOST:$PORT
visible_hostname localhost
pid_filename $dir/squid.pid
coredump_dir $dir
cache_log $dir/cache.log
access_log none
cache_store_log none
logfile_rotate 0
netdb_filename none
cache deny all
cache_mem 8 MB
memory_pools on
workers 1
max_filedescriptors 16384
acl bench_clients src 127.0.0.1
http_access allow bench_clients
http_access deny all
client_persistent_connections on
server_persistent_connections on
pconn_timeout 60 seconds
via off
forwarded_for delete
shutdown_lifetime 0 seconds
EOF
  # As root, squid drops to its effective user (proxy on Debian): let it write its files.
  if [ "$(id -u)" = 0 ] && id proxy >/dev/null 2>&1; then chown -R proxy "$dir"; fi
}

launch() {
  local bin; bin=$(squid_bin)
  make_data_dir
  write_config "$DATA_DIR"
  "$bin" -N -f "$DATA_DIR/squid.conf" >"$DATA_DIR/console.log" 2>&1 &
  echo $! >"$PID_FILE"
  for _ in $(seq 1 80); do   # up to 20 s
    if port_open "$PORT"; then
      log "started $("$bin" -v | head -n 1) on $HOST:$PORT (pid $(cat "$PID_FILE"), config $DATA_DIR/squid.conf)"
      return 0
    fi
    if ! running_pid >/dev/null; then
      abort_start "squid exited at start" "$DATA_DIR/console.log" "$DATA_DIR/cache.log"
      return 1
    fi
    sleep 0.25
  done
  abort_start "squid did not listen on $HOST:$PORT within 20 s" "$DATA_DIR/console.log" "$DATA_DIR/cache.log"
  return 1
}

server_main "$@"
