#!/usr/bin/env bash
# A single-node KRaft Kafka broker (broker + controller in one JVM) from Maven Central jars.
#
#   infra/kafka/kafka.sh fetch    mvn copies the broker jars into infra/kafka/lib (skipped when present)
#   infra/kafka/kafka.sh start    fetch if needed, format storage once, start, wait until ready;
#                                 prints KAFKA_BROKERS=127.0.0.1:PORT on stdout
#   infra/kafka/kafka.sh stop     SIGTERM (controlled shutdown), waits, SIGKILL after 60 s
#   infra/kafka/kafka.sh status   prints KAFKA_BROKERS=... and exits 0 when running, exits 3 when not
#
# Env: KAFKA_PORT (59092), KAFKA_CONTROLLER_PORT (59093), KAFKA_DATA_DIR (infra/.run/kafka/data),
#      KAFKA_HEAP_OPTS (-Xms256m -Xmx512m), INFRA_RUN_DIR (infra/.run), JAVA (java on PATH),
#      KAFKA_JVM_OPTS (-XX:TieredStopAtLevel=1: the C1 compiler only, see docs/perf/idle-cpu.md),
#      KAFKA_EXTRA_CONFIG (lines added to server.properties, for experiments).
#      KAFKA_SASL_PORT (unset): also a SASL_PLAINTEXT listener (mechanism PLAIN) on that port, for the
#      users in KAFKA_SASL_USERS ("name:password,name:password"); start and status then also print
#      KAFKA_SASL_BROKERS=127.0.0.1:PORT. (The clients' side: KAFKA_SASL_* in services/kit/src/config.ts.)
# Needs Java 17+ and, for fetch, Maven. Data (topics, offsets, cluster id) survive stop/start;
# remove infra/.run/kafka to start from nothing.
set -euo pipefail
INFRA_NAME=kafka
# shellcheck source=../lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"

KAFKA_HOME="$INFRA_DIR/kafka"
LIB="$KAFKA_HOME/lib"
KAFKA_HOST=127.0.0.1
KAFKA_PORT="${KAFKA_PORT:-59092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-59093}"
KAFKA_SASL_PORT="${KAFKA_SASL_PORT:-}"
KAFKA_SASL_USERS="${KAFKA_SASL_USERS:-}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
# C1 only (no C2): the broker's traffic here is a few events a second, and C2 was still compiling a minute
# after start, 19 ms of CPU a second of an idle product's total budget of 100 (issue 35)
KAFKA_JVM_OPTS="${KAFKA_JVM_OPTS:--XX:TieredStopAtLevel=1}"
JAVA="${JAVA:-java}"
START_TIMEOUT=90
STOP_TIMEOUT=60
PATTERN='kafka\.Kafka'

pom_stamp() { sha256sum "$KAFKA_HOME/pom.xml" | cut -c1-64; }

jars_present() {
  [[ -f $LIB/.fetched ]] && [[ $(cat "$LIB/.fetched") == "$(pom_stamp)" ]] &&
    compgen -G "$LIB/kafka_2.13-*.jar" >/dev/null
}

cmd_fetch() {
  if jars_present; then
    log "jars already in $LIB ($(ls "$LIB"/*.jar | wc -l) jars); skipping fetch"
    return 0
  fi
  command -v mvn >/dev/null || die "mvn not found (apt-get install maven)"
  log "fetching broker jars from Maven Central into $LIB"
  local t0=$SECONDS
  rm -rf "$LIB"
  mkdir -p "$LIB"
  local out
  if ! out=$(cd "$KAFKA_HOME" && timeout 900 mvn -B -q -Dstyle.color=never -f pom.xml \
    dependency:copy-dependencies -DoutputDirectory="$LIB" -DincludeScope=runtime 2>&1); then
    printf '%s\n' "$out" >&2
    rm -rf "$LIB"
    die "mvn dependency:copy-dependencies failed"
  fi
  compgen -G "$LIB/kafka_2.13-*.jar" >/dev/null || die "no kafka_2.13 jar after fetch"
  pom_stamp >"$LIB/.fetched"
  log "fetched $(ls "$LIB"/*.jar | wc -l) jars in $((SECONDS - t0))s"
}

check_java() {
  command -v "$JAVA" >/dev/null || die "java not found (apt-get install openjdk-17-jre-headless)"
  local v
  v=$("$JAVA" -XX:+IgnoreUnrecognizedVMOptions -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')
  [[ -n $v && $v -ge 17 ]] || die "Java 17 or newer is needed (found ${v:-unknown})"
}

resolve_dirs() {
  RUN="$(run_dir kafka)"
  DATA="${KAFKA_DATA_DIR:-$RUN/data}"
  PIDFILE="$RUN/kafka.pid"
  PORTFILE="$RUN/port"
  OUT="$RUN/kafka.out"
  CONF="$RUN/server.properties"
  LOG4J="$RUN/log4j.properties"
  LOG4J_TOOLS="$RUN/log4j-tools.properties"
}

running_port() { portfile_port "$PORTFILE" "$KAFKA_PORT"; }

print_brokers() {
  printf 'KAFKA_BROKERS=%s:%s\n' "$KAFKA_HOST" "$1"
  if [[ -f $RUN/sasl-port ]]; then printf 'KAFKA_SASL_BROKERS=%s:%s\n' "$KAFKA_HOST" "$(cat "$RUN/sasl-port")"; fi
}

# The SASL_PLAINTEXT listener's lines of server.properties (none without KAFKA_SASL_PORT).
sasl_listener() { [[ -n $KAFKA_SASL_PORT ]] && printf ',SASL_PLAINTEXT://%s:%s' "$KAFKA_HOST" "$KAFKA_SASL_PORT"; return 0; }
sasl_config() {
  [[ -n $KAFKA_SASL_PORT ]] || return 0
  [[ -n $KAFKA_SASL_USERS ]] || die "KAFKA_SASL_PORT needs KAFKA_SASL_USERS (name:password,...)"
  local users="" pair
  IFS=',' read -ra pairs <<<"$KAFKA_SASL_USERS"
  for pair in "${pairs[@]}"; do users+=" user_${pair%%:*}=\"${pair#*:}\""; done
  printf 'sasl.enabled.mechanisms=PLAIN\n'
  printf 'listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required%s;\n' "$users"
}

write_config() {
  mkdir -p "$DATA" "$RUN/logs"
  cat >"$CONF" <<EOF
# written by infra/kafka/kafka.sh at every start
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT$(sasl_listener)
advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT$(sasl_listener)
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT
$(sasl_config)
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$DATA

auto.create.topics.enable=true
num.partitions=3
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
delete.topic.enable=true
# events carry files of up to 5 MB as base64 (kit's KAFKA_EVENT_MAX_BYTES, 16 MiB)
message.max.bytes=16777216
replica.fetch.max.bytes=16777216

# small machine (2 cores)
num.network.threads=2
num.io.threads=2
# idle costs (issue 35, docs/perf/idle-cpu.md): the controller appends a no-op record to the metadata log
# every 500 ms by default, and the broker heartbeats to its controller every 2 s; in this single-node
# KRaft both are in the one process and only prove liveness to itself
metadata.max.idle.interval.ms=5000
broker.heartbeat.interval.ms=5000
broker.session.timeout.ms=18000
num.recovery.threads.per.data.dir=1
log.retention.hours=168
log.segment.bytes=104857600
# KAFKA_EXTRA_CONFIG: more lines, for an experiment (a later line wins over an earlier one)
${KAFKA_EXTRA_CONFIG:-}
EOF
  cat >"$LOG4J" <<'EOF'
# written by infra/kafka/kafka.sh; stdout is redirected to infra/.run/kafka/kafka.out
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.org.apache.kafka.storage.internals.log=WARN
log4j.logger.kafka.log.UnifiedLog=WARN
log4j.logger.org.apache.kafka.clients=WARN
EOF
  cat >"$LOG4J_TOOLS" <<'EOF'
# written by infra/kafka/kafka.sh; for the storage tool and the readiness check
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

format_storage() {
  if [[ -f $DATA/meta.properties ]]; then
    return 0
  fi
  # a Kafka Uuid: 16 random bytes, base64url without padding (22 characters)
  # (never starting with '-', which the tool's argument parser would read as an option: Kafka's own
  # Uuid.randomUuid() draws again for the same reason)
  local cid='-'
  while [[ $cid == -* ]]; do
    cid=$(head -c16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')
  done
  log "formatting $DATA (cluster id $cid)"
  local out
  if ! out=$(timeout 60 "$JAVA" -Xmx256m -Dlog4j.configuration="file:$LOG4J_TOOLS" -cp "$LIB/*" \
    kafka.tools.StorageTool format -t "$cid" -c "$CONF" 2>&1); then
    printf '%s\n' "$out" >&2
    die "storage format failed"
  fi
}

# Ready when the broker logged "Kafka Server started" (it has caught up with the metadata log and
# is unfenced) and answers an ApiVersions request on the client port.
wait_ready() {
  local pid=$1 deadline=$((SECONDS + START_TIMEOUT))
  wait_for_port "$KAFKA_HOST" "$KAFKA_PORT" "$START_TIMEOUT" "$pid" || return 1
  until grep -q 'Kafka Server started' "$OUT" 2>/dev/null; do
    if ! pid_alive "$pid"; then
      log "broker exited during startup"
      return 1
    fi
    if ((SECONDS >= deadline)); then
      log "broker did not report started within ${START_TIMEOUT}s"
      return 1
    fi
    sleep 0.2
  done
  local left=$((deadline - SECONDS))
  ((left < 10)) && left=10
  if ! timeout "$left" "$JAVA" -Xmx128m -XX:TieredStopAtLevel=1 -Dlog4j.configuration="file:$LOG4J_TOOLS" \
    -cp "$LIB/*" kafka.admin.BrokerApiVersionsCommand \
    --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" >"$RUN/api-versions.txt" 2>&1; then
    log "broker does not answer ApiVersions"
    cat "$RUN/api-versions.txt" >&2
    return 1
  fi
  grep -q "$KAFKA_HOST:$KAFKA_PORT" "$RUN/api-versions.txt" || {
    cat "$RUN/api-versions.txt" >&2
    return 1
  }
}

cmd_start() {
  resolve_dirs
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    log "already running on $KAFKA_HOST:$port (pid $(read_pid "$PIDFILE"))"
    print_brokers "$port"
    return 0
  fi
  check_java
  jars_present || cmd_fetch
  ensure_port_free "$KAFKA_HOST" "$KAFKA_PORT" KAFKA_PORT
  ensure_port_free "$KAFKA_HOST" "$KAFKA_CONTROLLER_PORT" KAFKA_CONTROLLER_PORT
  rm -f "$RUN/sasl-port"
  if [[ -n $KAFKA_SASL_PORT ]]; then
    ensure_port_free "$KAFKA_HOST" "$KAFKA_SASL_PORT" KAFKA_SASL_PORT
    printf '%s\n' "$KAFKA_SASL_PORT" >"$RUN/sasl-port"
  fi
  write_config
  format_storage
  [[ -f $OUT ]] && mv -f "$OUT" "$OUT.1"
  log "starting broker on $KAFKA_HOST:$KAFKA_PORT (controller $KAFKA_CONTROLLER_PORT, data $DATA)"
  local t0=$SECONDS
  # setsid: the broker outlives the shell (and the test runner's process group) that started it.
  # The inner bash writes its own pid, then execs java, so the pid file names the JVM.
  # shellcheck disable=SC2086
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PIDFILE" \
    "$JAVA" $KAFKA_HEAP_OPTS $KAFKA_JVM_OPTS -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError \
    -Djava.awt.headless=true -Dlog4j.configuration="file:$LOG4J" -Dkafka.logs.dir="$RUN/logs" \
    -cp "$LIB/*" kafka.Kafka "$CONF" </dev/null >"$OUT" 2>&1 &
  local deadline=$((SECONDS + 5)) pid=""
  until [[ -n $pid ]] || ((SECONDS >= deadline)); do
    pid=$(read_pid "$PIDFILE")
    [[ -n $pid ]] || sleep 0.05
  done
  [[ -n $pid ]] || die "broker did not start (no pid file)"
  printf '%s\n' "$KAFKA_PORT" >"$PORTFILE"
  if ! wait_ready "$pid"; then
    tail -n 40 "$OUT" >&2 || true
    stop_pid "$pid" 20 "$PATTERN" || true
    rm -f "$PIDFILE" "$PORTFILE"
    die "broker failed to become ready (log: $OUT)"
  fi
  log "ready in $((SECONDS - t0))s (pid $pid, log $OUT)"
  print_brokers "$KAFKA_PORT"
}

cmd_stop() {
  resolve_dirs
  if ! pidfile_alive "$PIDFILE" "$PATTERN"; then
    log "not running"
    return 0
  fi
  local pid port t0=$SECONDS
  pid=$(read_pid "$PIDFILE")
  port=$(running_port)
  log "stopping (pid $pid)"
  stop_pid "$pid" "$STOP_TIMEOUT" "$PATTERN" || die "could not stop pid $pid"
  wait_for_port_closed "$KAFKA_HOST" "$port" 10 || log "port $port still answers after stop"
  rm -f "$PIDFILE" "$PORTFILE" "$RUN/sasl-port"
  log "stopped in $((SECONDS - t0))s"
}

cmd_status() {
  resolve_dirs
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    if port_open "$KAFKA_HOST" "$port"; then
      log "running on $KAFKA_HOST:$port (pid $(read_pid "$PIDFILE"))"
    else
      log "process running (pid $(read_pid "$PIDFILE")) but $KAFKA_HOST:$port does not answer"
    fi
    print_brokers "$port"
    return 0
  fi
  log "stopped"
  return 3
}

dispatch "fetch|start|stop|status" "$@"
