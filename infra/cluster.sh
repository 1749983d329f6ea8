#!/usr/bin/env bash
# PostgreSQL + Redis + Kafka together, for the distributed tests and for running services by hand.
#
#   infra/cluster.sh up       start the three (each is idempotent); prints on stdout
#                               DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres
#                               REDIS_URL=redis://127.0.0.1:56379
#                               KAFKA_BROKERS=127.0.0.1:59092
#                             and writes the same lines to infra/.run/cluster.env
#   infra/cluster.sh down     stop the three (Kafka first)
#   infra/cluster.sh status   the env lines of the running ones; exit 0 only when all three run
#
# Use: `set -a; eval "$(infra/cluster.sh up)"; set +a`, or `. infra/.run/cluster.env` after `up`.
# Ports and dirs: see infra/postgres.sh, infra/redis.sh, infra/kafka/kafka.sh.
set -euo pipefail
INFRA_NAME=cluster
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

ENV_FILE="$INFRA_RUN_BASE/cluster.env"

cmd_up() {
  local t0=$SECONDS lines
  mkdir -p "$INFRA_RUN_BASE"
  # Kafka is the slow one: start it in the background while the others come up.
  local kout="$INFRA_RUN_BASE/cluster-kafka.out"
  bash "$INFRA_DIR/kafka/kafka.sh" start >"$kout" &
  local kpid=$!
  local pg redis kafka rc=0
  pg=$(bash "$INFRA_DIR/postgres.sh" start) || rc=1
  redis=$(bash "$INFRA_DIR/redis.sh" start) || rc=1
  wait "$kpid" || rc=1
  kafka=$(cat "$kout")
  rm -f "$kout"
  if ((rc != 0)); then
    die "could not start every server (see above); run '$0 down' to stop the others"
  fi
  lines=$(printf '%s\n%s\n%s\n' "$pg" "$redis" "$kafka" | grep -E '^[A-Z_]+=')
  printf '%s\n' "$lines" >"$ENV_FILE"
  log "up in $((SECONDS - t0))s; env in $ENV_FILE"
  printf '%s\n' "$lines"
}

cmd_down() {
  local rc=0
  bash "$INFRA_DIR/kafka/kafka.sh" stop || rc=1
  bash "$INFRA_DIR/redis.sh" stop || rc=1
  bash "$INFRA_DIR/postgres.sh" stop || rc=1
  rm -f "$ENV_FILE"
  return $rc
}

cmd_status() {
  local rc=0
  bash "$INFRA_DIR/postgres.sh" status || rc=3
  bash "$INFRA_DIR/redis.sh" status || rc=3
  bash "$INFRA_DIR/kafka/kafka.sh" status || rc=3
  return $rc
}

case "${1:-}" in
up | start) cmd_up ;;
down | stop) cmd_down ;;
status) cmd_status ;;
*) usage_and_exit "up|down|status" ;;
esac
