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
. "$(dirname "${BASH_SOURCE[0]}")/server-lib.sh"   # HOST, CACHE_ROOT, log, cmd_start/stop/status...

MJS_VERSION="1.47.0"
SLF4J_VERSION="2.0.17"

SERVER_NAME="mongodb"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
HOME_DIR="$CACHE_ROOT/mongo-java-server-$MJS_VERSION"
LIB_DIR="$HOME_DIR/libs"
CLASS_DIR="$HOME_DIR/classes"
RUN_DIR="$HOME_DIR/run"
PORT="${MONGO_PORT:-37017}"
PID_FILE="$RUN_DIR/mongodb-$PORT.pid"
DATA_FILE="$RUN_DIR/mongodb-$PORT.datadir"   # holds the path of the temp data dir
CONSOLE_LOG="$RUN_DIR/mongodb-$PORT.out"
START_TIMEOUT="${MONGO_START_TIMEOUT:-60}"
STOP_TIMEOUT=10
HEAP="${MONGO_HEAP:--Xmx1g -Xms64m}"
BACKEND="${MONGO_BACKEND:-memory}"
LOG_LEVEL="${MONGO_LOG_LEVEL:-warn}"
URI="mongodb://$HOST:$PORT/"
ADDRESS_LINE="MONGODB_URI=$URI"

require_tools() {
  require_commands "needed to build and run mongo-java-server $MJS_VERSION" java javac mvn node
  if [ ! -f "$REPO_ROOT/node_modules/mongodb/package.json" ]; then
    skip "node_modules/mongodb missing in $REPO_ROOT (run npm ci) - needed for the readiness ping"
  fi
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
    maven_fetch mongo-runtime \
      "de.bwaldvogel:mongo-java-server:$MJS_VERSION" \
      "de.bwaldvogel:mongo-java-server-h2-backend:$MJS_VERSION" \
      "org.slf4j:slf4j-simple:$SLF4J_VERSION"
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

launch() { # called by cmd_start (server-lib.sh) once nothing runs on PORT
  case "$BACKEND" in memory|h2) ;; *) log "MONGO_BACKEND must be memory or h2"; return 2 ;; esac
  fetch_and_build

  make_data_dir
  local dir="$DATA_DIR"
  local started=$SECONDS
  # shellcheck disable=SC2086
  nohup java $HEAP -XX:+ExitOnOutOfMemoryError -Xshare:auto -Djava.awt.headless=true \
    -Djava.io.tmpdir="$dir" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel="$LOG_LEVEL" \
    -Dorg.slf4j.simpleLogger.showDateTime=true \
    -cp "$CLASS_DIR:$LIB_DIR/*" CrawlhubMongoServer "$HOST" "$PORT" "$BACKEND" "$dir/h2.mv" \
    >"$CONSOLE_LOG" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$PID_FILE"

  if ! wait_ready "$pid"; then
    abort_start "server not ready (exited, or no ping answer within ${START_TIMEOUT}s)" "$CONSOLE_LOG"
    return 1
  fi
  log "started (pid $pid, backend $BACKEND, data dir $dir) in $(( SECONDS - started ))s"
}

server_main "$@"
