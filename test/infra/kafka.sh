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
. "$(dirname "${BASH_SOURCE[0]}")/server-lib.sh"   # HOST, CACHE_ROOT, log, cmd_start/stop/status...

KAFKA_VERSION="3.9.1"
SCALA_BINARY="2.13"

SERVER_NAME="kafka"
KAFKA_HOME_DIR="$CACHE_ROOT/kafka-$KAFKA_VERSION"
LIB_DIR="$KAFKA_HOME_DIR/libs"
RUN_DIR="$KAFKA_HOME_DIR/run"
PORT="${KAFKA_PORT:-39092}"
PID_FILE="$RUN_DIR/kafka-$PORT.pid"
DATA_FILE="$RUN_DIR/kafka-$PORT.logdir"   # holds the path of the temp log dir
CONSOLE_LOG="$RUN_DIR/kafka-$PORT.out"
START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT=15
HEAP="${KAFKA_HEAP:--Xmx512m -Xms256m}"
ADDRESS_LINE="KAFKA_BROKERS=$HOST:$PORT"

require_tools() {
  require_commands "needed to fetch and run Apache Kafka $KAFKA_VERSION" java mvn
}

# The controller's port is drawn just below the kernel's ephemeral range: a port inside it can
# be taken by an outgoing connection (pip's, a client's) in the seconds between the draw and
# the broker's bind (a run failed with "failed to bind to 127.0.0.1:38628: Address already in
# use"), and the 700 ports below it are above the jest workers' slices (20000-32000,
# test/support/spawn-platform.ts).
CONTROLLER_PORTS=700
free_port() { # prints a free TCP port on 127.0.0.1, not equal to $1
  local avoid="$1" p low
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 1 200); do
    p=$(( low - CONTROLLER_PORTS + RANDOM % CONTROLLER_PORTS ))
    [ "$p" = "$avoid" ] && continue
    if ! port_open "$p" && ! ss -Htln "sport = :$p" 2>/dev/null | grep -q .; then
      echo "$p"; return 0
    fi
  done
  return 1
}

fetch_jars() {
  if [ -f "$LIB_DIR/.complete" ]; then return 0; fi
  log "fetching Apache Kafka $KAFKA_VERSION from Maven Central (first run only)..."
  maven_fetch kafka-runtime \
    "org.apache.kafka:kafka_$SCALA_BINARY:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-server:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-storage:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-metadata:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-raft:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-group-coordinator:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-transaction-coordinator:$KAFKA_VERSION" \
    "org.apache.kafka:kafka-tools-api:$KAFKA_VERSION" \
    "net.sourceforge.argparse4j:argparse4j:0.7.0" \
    "org.slf4j:slf4j-reload4j:1.7.36" \
    "ch.qos.reload4j:reload4j:1.2.25"
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

launch() { # called by cmd_start (server-lib.sh) once nothing runs on PORT
  fetch_jars

  local cport="${KAFKA_CONTROLLER_PORT:-}"
  [ -n "$cport" ] || cport=$(free_port "$PORT") || { log "no free controller port"; return 1; }
  make_data_dir
  local dir="$DATA_DIR"
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
  local pid=$!
  echo "$pid" >"$PID_FILE"

  local deadline=$(( SECONDS + START_TIMEOUT ))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      abort_start "broker exited during startup" "$dir/server.log" "$CONSOLE_LOG"; return 1
    fi
    if port_open "$PORT" && grep -q "Kafka Server started" "$dir/server.log" 2>/dev/null; then
      break
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      abort_start "broker did not start within ${START_TIMEOUT}s" "$dir/server.log" "$CONSOLE_LOG"; return 1
    fi
    sleep 0.25
  done
  log "started (pid $pid, controller port $cport, log dir $dir)"
}

server_main "$@"
