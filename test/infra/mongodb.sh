#!/usr/bin/env bash
# A MongoDB wire-protocol server for tests: mongo-java-server (de.bwaldvogel, in-memory
# backend) behind a tiny Java main. The official Node `mongodb` 6.x driver uses it through
# the plain API (CRUD, bulkWrite, findOneAndUpdate, unique/compound indexes, simple
# aggregation). No transactions, change streams, $text, collations, partial indexes or
# pipeline-style updates: keep adapters to the plain API (see mongodb-smoke.test.ts).
#
#   bash test/infra/mongodb.sh start    # prints MONGODB_URI=mongodb://127.0.0.1:<port>/
#   bash test/infra/mongodb.sh status
#   bash test/infra/mongodb.sh stop     # idempotent
#
# The jars come from Maven Central through Maven (a throwaway pom and
# `dependency:copy-dependencies`); they and the compiled main are cached in
# ${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}/mongo-java-server-<version>/, so only the first
# run downloads. Each start gets a fresh temp data dir; stop removes it.
#
# Environment: MONGO_PORT (default 37017), MONGO_BACKEND (memory (default) or h2: an H2
# file in the temp data dir; slower), MONGO_HEAP (default -Xmx1g -Xms64m),
# MONGO_LOG_LEVEL (server log level, default warn), MONGO_START_TIMEOUT (seconds, default 60).
# Exit codes: 0 ok, 1 failure, 2 usage, 3 skipped (java, javac, mvn or node missing).
set -euo pipefail

MJS_VERSION="1.47.0"
SLF4J_VERSION="2.0.17"
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_ROOT="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
HOME_DIR="$CACHE_ROOT/mongo-java-server-$MJS_VERSION"
LIB_DIR="$HOME_DIR/libs"
CLASS_DIR="$HOME_DIR/classes"
RUN_DIR="$HOME_DIR/run"
PORT="${MONGO_PORT:-37017}"
HOST="127.0.0.1"
PID_FILE="$RUN_DIR/mongodb-$PORT.pid"
DATA_FILE="$RUN_DIR/mongodb-$PORT.datadir"   # holds the path of the temp data dir
CONSOLE_LOG="$RUN_DIR/mongodb-$PORT.out"
START_TIMEOUT="${MONGO_START_TIMEOUT:-60}"
HEAP="${MONGO_HEAP:--Xmx1g -Xms64m}"
BACKEND="${MONGO_BACKEND:-memory}"
LOG_LEVEL="${MONGO_LOG_LEVEL:-warn}"
URI="mongodb://$HOST:$PORT/"

log() { echo "mongodb.sh: $*" >&2; }

require_tools() {
  local missing=()
  for t in java javac mvn node; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "skipped: ${missing[*]} not found on PATH (needed to build and run mongo-java-server $MJS_VERSION)"
    exit 3
  fi
  if [ ! -f "$REPO_ROOT/node_modules/mongodb/package.json" ]; then
    echo "skipped: node_modules/mongodb missing in $REPO_ROOT (run npm ci) - needed for the readiness ping"
    exit 3
  fi
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

java_source() {
  cat <<'EOF'
import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/** Runs mongo-java-server on host:port; args: host port memory|h2 [h2-file]. */
public class CrawlhubMongoServer {
    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        MongoBackend backend = "h2".equals(args[2]) ? new H2Backend(args[3]) : new MemoryBackend();
        MongoServer server = new MongoServer(backend);
        server.bind(new InetSocketAddress(host, port));
        System.out.println("crawlhub mongo-java-server listening on " + host + ":" + port + " (" + args[2] + ")");
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Thread.currentThread().join();
    }
}
EOF
}

fetch_and_build() {
  if [ ! -f "$LIB_DIR/.complete" ]; then
    log "fetching mongo-java-server $MJS_VERSION from Maven Central (first run only)..."
    local work; work=$(mktemp -d)
    cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>crawlhub.test</groupId>
  <artifactId>mongo-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>de.bwaldvogel</groupId><artifactId>mongo-java-server</artifactId><version>$MJS_VERSION</version></dependency>
    <dependency><groupId>de.bwaldvogel</groupId><artifactId>mongo-java-server-h2-backend</artifactId><version>$MJS_VERSION</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-simple</artifactId><version>$SLF4J_VERSION</version></dependency>
  </dependencies>
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
    log "jars cached in $LIB_DIR"
  fi

  local sum; sum=$(java_source | sha256sum | cut -c1-16)
  if [ ! -f "$CLASS_DIR/.src-$sum" ]; then
    log "compiling the server main..."
    rm -rf "$CLASS_DIR.tmp"; mkdir -p "$CLASS_DIR.tmp/src"
    java_source >"$CLASS_DIR.tmp/src/CrawlhubMongoServer.java"
    if ! javac -nowarn -cp "$LIB_DIR/*" -d "$CLASS_DIR.tmp" "$CLASS_DIR.tmp/src/CrawlhubMongoServer.java" >&2; then
      log "javac failed"; rm -rf "$CLASS_DIR.tmp"; return 1
    fi
    touch "$CLASS_DIR.tmp/.src-$sum"
    rm -rf "$CLASS_DIR"; mv "$CLASS_DIR.tmp" "$CLASS_DIR"
  fi
}

wait_ready() { # pid -> 0 once a driver ping works; bounded by START_TIMEOUT
  (cd "$REPO_ROOT" && node -e '
    const { MongoClient } = require("mongodb");
    const [uri, pid, timeoutS] = process.argv.slice(1);
    const deadline = Date.now() + Number(timeoutS) * 1000;
    (async () => {
      for (;;) {
        try { process.kill(Number(pid), 0); } catch { console.error("server process exited"); process.exit(1); }
        const c = new MongoClient(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500, directConnection: true });
        try {
          const r = await c.db("admin").command({ ping: 1 });
          if (r.ok === 1) process.exit(0);
        } catch (e) {
          if (Date.now() > deadline) { console.error("no ping answer: " + e.message); process.exit(1); }
        } finally { await c.close().catch(() => {}); }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
  ' "$URI" "$1" "$START_TIMEOUT")
}

cmd_start() {
  require_tools
  mkdir -p "$RUN_DIR"
  local pid
  if pid=$(running_pid); then
    log "already running (pid $pid)"
    echo "MONGODB_URI=$URI"
    return 0
  fi
  cleanup_stale
  if port_open "$PORT"; then
    log "port $PORT on $HOST is already in use by another process"; return 1
  fi
  case "$BACKEND" in memory|h2) ;; *) log "MONGO_BACKEND must be memory or h2"; return 2 ;; esac
  fetch_and_build

  local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/crawlhub-mongodb-$PORT.XXXXXX")
  echo "$dir" >"$DATA_FILE"
  local started=$SECONDS
  # shellcheck disable=SC2086
  nohup java $HEAP -XX:+ExitOnOutOfMemoryError -Xshare:auto -Djava.awt.headless=true \
    -Djava.io.tmpdir="$dir" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel="$LOG_LEVEL" \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -cp "$CLASS_DIR:$LIB_DIR/*" CrawlhubMongoServer "$HOST" "$PORT" "$BACKEND" "$dir/h2.mv" \
    >"$CONSOLE_LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"

  if ! wait_ready "$pid"; then
    log "server not ready (exited, or no ping answer within ${START_TIMEOUT}s); last lines:"
    tail -n 30 "$CONSOLE_LOG" >&2 2>/dev/null || true
    cmd_stop >/dev/null 2>&1 || true
    return 1
  fi
  log "started (pid $pid, backend $BACKEND, data dir $dir) in $(( SECONDS - started ))s"
  echo "MONGODB_URI=$URI"
}

cleanup_stale() { # removes the files of a server that is no longer running
  if [ -f "$DATA_FILE" ]; then
    local dir; dir=$(cat "$DATA_FILE" 2>/dev/null || true)
    case "$dir" in
      */crawlhub-mongodb-*) rm -rf "$dir" ;;
    esac
    rm -f "$DATA_FILE"
  fi
  rm -f "$PID_FILE"
}

cmd_stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do   # up to 10 s for a clean shutdown
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
    echo "running (pid $pid) MONGODB_URI=$URI"
  else
    echo "not running"
    return 1
  fi
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
