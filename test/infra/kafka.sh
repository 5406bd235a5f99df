#!/usr/bin/env bash
# A real single-node Apache Kafka broker (KRaft, combined broker+controller) for tests.
#
#   bash test/infra/kafka.sh start    # prints KAFKA_BROKERS=127.0.0.1:<port>
#   bash test/infra/kafka.sh status
#   bash test/infra/kafka.sh stop     # idempotent
#
# The broker's jars come from Maven Central through Maven (a throwaway pom and
# `dependency:copy-dependencies`) and are cached in
# ${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}/kafka-<version>/, so only the first run downloads.
# Each start formats a fresh KRaft log dir in a temp dir; stop removes it.
#
# Environment: KAFKA_PORT (default 39092), KAFKA_CONTROLLER_PORT (default: a free port),
# KAFKA_HEAP (default -Xmx512m -Xms256m), KAFKA_START_TIMEOUT (seconds, default 90).
# Exit codes: 0 ok, 1 failure, 2 usage, 3 skipped (java or mvn missing).
set -euo pipefail

KAFKA_VERSION="3.9.1"
SCALA_BINARY="2.13"
DEP_PLUGIN="org.apache.maven.plugins:maven-dependency-plugin:3.6.1"

CACHE_ROOT="${CRAWLHUB_CACHE:-$HOME/.cache/crawlhub}"
KAFKA_HOME_DIR="$CACHE_ROOT/kafka-$KAFKA_VERSION"
LIB_DIR="$KAFKA_HOME_DIR/libs"
RUN_DIR="$KAFKA_HOME_DIR/run"
PORT="${KAFKA_PORT:-39092}"
HOST="127.0.0.1"
PID_FILE="$RUN_DIR/kafka-$PORT.pid"
DATA_FILE="$RUN_DIR/kafka-$PORT.logdir"   # holds the path of the temp log dir
CONSOLE_LOG="$RUN_DIR/kafka-$PORT.out"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
HEAP="${KAFKA_HEAP:--Xmx512m -Xms256m}"

log() { echo "kafka.sh: $*" >&2; }

require_tools() {
  local missing=()
  command -v java >/dev/null 2>&1 || missing+=(java)
  command -v mvn >/dev/null 2>&1 || missing+=(mvn)
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "skipped: ${missing[*]} not found on PATH (needed to fetch and run Apache Kafka $KAFKA_VERSION)"
    exit 3
  fi
}

port_open() { # port -> 0 if something accepts TCP connections on 127.0.0.1:port
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

free_port() { # prints a free TCP port on 127.0.0.1, not equal to $1
  local avoid="$1" p
  for _ in $(seq 1 200); do
    p=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    [ "$p" = "$avoid" ] && continue
    if ! port_open "$p" && ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then
      echo "$p"; return 0
    fi
  done
  return 1
}

running_pid() { # prints the broker's pid if it is alive
  [ -f "$PID_FILE" ] || return 1
  local pid; pid=$(cat "$PID_FILE" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

fetch_jars() {
  if [ -f "$LIB_DIR/.complete" ]; then return 0; fi
  log "fetching Apache Kafka $KAFKA_VERSION from Maven Central (first run only)..."
  local work; work=$(mktemp -d)
  cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>crawlhub.test</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_$SCALA_BINARY</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-server</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-storage</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-metadata</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-raft</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-group-coordinator</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-transaction-coordinator</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-tools-api</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>net.sourceforge.argparse4j</groupId><artifactId>argparse4j</artifactId><version>0.7.0</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-reload4j</artifactId><version>1.7.36</version></dependency>
    <dependency><groupId>ch.qos.reload4j</groupId><artifactId>reload4j</artifactId><version>1.2.25</version></dependency>
  </dependencies>
</project>
EOF
  mkdir -p "$LIB_DIR.tmp"
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

write_config() { # dir controller_port
  local dir="$1" cport="$2"
  cat >"$dir/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$cport
listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$cport
advertised.listeners=PLAINTEXT://$HOST:$PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$dir/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
delete.topic.enable=true
message.max.bytes=16777216
replica.fetch.max.bytes=16777216
socket.request.max.bytes=104857600
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
log.retention.hours=-1
log.segment.bytes=268435456
EOF
  cat >"$dir/log4j.properties" <<EOF
log4j.rootLogger=WARN, file
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka=INFO
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$dir/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

java_opts() { # dir
  echo "$HEAP -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError -Xshare:auto -Djava.awt.headless=true -Dlog4j.configuration=file:$1/log4j.properties"
}

cmd_start() {
  require_tools
  mkdir -p "$RUN_DIR"
  local pid
  if pid=$(running_pid); then
    log "already running (pid $pid)"
    echo "KAFKA_BROKERS=$HOST:$PORT"
    return 0
  fi
  cleanup_stale
  if port_open "$PORT"; then
    log "port $PORT on $HOST is already in use by another process"; return 1
  fi
  fetch_jars

  local cport="${KAFKA_CONTROLLER_PORT:-}"
  [ -n "$cport" ] || cport=$(free_port "$PORT") || { log "no free controller port"; return 1; }
  local dir; dir=$(mktemp -d "${TMPDIR:-/tmp}/crawlhub-kafka-$PORT.XXXXXX")
  echo "$dir" >"$DATA_FILE"
  write_config "$dir" "$cport"

  # A cluster id is 16 random bytes in URL-safe base64 without padding (like `random-uuid`).
  local cluster_id
  cluster_id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
  local cp="$LIB_DIR/*"
  # shellcheck disable=SC2046
  if ! java $(java_opts "$dir") -cp "$cp" kafka.tools.StorageTool format \
        --cluster-id="$cluster_id" --config="$dir/server.properties" --ignore-formatted >"$dir/format.log" 2>&1; then
    log "storage format failed:"; cat "$dir/format.log" >&2
    rm -rf "$dir"; rm -f "$DATA_FILE"; return 1
  fi

  # shellcheck disable=SC2046
  nohup java $(java_opts "$dir") -cp "$cp" kafka.Kafka "$dir/server.properties" \
    >"$CONSOLE_LOG" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"

  local deadline=$(( SECONDS + START_TIMEOUT ))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "broker exited during startup; last lines:"
      tail -n 30 "$dir/server.log" "$CONSOLE_LOG" >&2 2>/dev/null || true
      cleanup_stale; return 1
    fi
    if port_open "$PORT" && grep -q "Kafka Server started" "$dir/server.log" 2>/dev/null; then
      break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      log "broker did not start within ${START_TIMEOUT}s; last lines:"
      tail -n 30 "$dir/server.log" "$CONSOLE_LOG" >&2 2>/dev/null || true
      cmd_stop >/dev/null 2>&1 || true
      return 1
    fi
    sleep 0.25
  done
  log "started (pid $pid, controller port $cport, log dir $dir)"
  echo "KAFKA_BROKERS=$HOST:$PORT"
}

cleanup_stale() { # removes the files of a broker that is no longer running
  if [ -f "$DATA_FILE" ]; then
    local dir; dir=$(cat "$DATA_FILE" 2>/dev/null || true)
    case "$dir" in
      */crawlhub-kafka-*) rm -rf "$dir" ;;
    esac
    rm -f "$DATA_FILE"
  fi
  rm -f "$PID_FILE"
}

cmd_stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do   # up to 15 s for a clean shutdown
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
    echo "running (pid $pid) KAFKA_BROKERS=$HOST:$PORT"
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
