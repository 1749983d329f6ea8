#!/usr/bin/env bash
# Throwaway Redis for tests, from Debian's redis-server.
#
#   infra/redis.sh start    prints REDIS_URL=redis://127.0.0.1:PORT on stdout
#   infra/redis.sh stop     SHUTDOWN NOSAVE (then SIGTERM/SIGKILL if needed)
#   infra/redis.sh status   prints REDIS_URL=... and exits 0 when running, exits 3 when not
#
# Env: REDIS_PORT (56379), INFRA_RUN_DIR (infra/.run). No persistence (--save "" --appendonly no).
set -euo pipefail
INFRA_NAME=redis
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

REDIS_PORT="${REDIS_PORT:-56379}"
REDIS_HOST=127.0.0.1
START_TIMEOUT=20
DIR="$(run_dir redis)"
PIDFILE="$DIR/redis.pid"
PORTFILE="$DIR/port"
LOGFILE="$DIR/redis.log"
PATTERN='redis-server'

command -v redis-server >/dev/null ||
  die "redis-server not found (run scripts/install-test-deps.sh, or apt-get install redis-server)"

print_url() { printf 'REDIS_URL=redis://%s:%s\n' "$REDIS_HOST" "$1"; }

running_port() { portfile_port "$PORTFILE" "$REDIS_PORT"; }

ping() {
  [[ $(timeout 3 redis-cli -h "$REDIS_HOST" -p "$1" ping 2>/dev/null || true) == PONG ]]
}

cmd_start() {
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    log "already running on $REDIS_HOST:$port (pid $(read_pid "$PIDFILE"))"
    print_url "$port"
    return 0
  fi
  ensure_port_free "$REDIS_HOST" "$REDIS_PORT" REDIS_PORT
  log "starting redis-server on $REDIS_HOST:$REDIS_PORT"
  : >"$LOGFILE"
  redis-server --port "$REDIS_PORT" --bind "$REDIS_HOST" --save "" --appendonly no \
    --daemonize yes --pidfile "$PIDFILE" --dir "$DIR" --logfile "$LOGFILE" \
    --protected-mode yes --maxclients 10000 >/dev/null ||
    die "redis-server failed to start (log: $LOGFILE)"
  printf '%s\n' "$REDIS_PORT" >"$PORTFILE"
  local deadline=$((SECONDS + START_TIMEOUT))
  until ping "$REDIS_PORT"; do
    if ((SECONDS >= deadline)); then
      tail -n 20 "$LOGFILE" >&2 || true
      die "no PONG from $REDIS_HOST:$REDIS_PORT within ${START_TIMEOUT}s"
    fi
    sleep 0.1
  done
  # the pid file is written right after daemonizing; make sure it is there before we return
  deadline=$((SECONDS + 5))
  until [[ -s $PIDFILE ]] || ((SECONDS >= deadline)); do sleep 0.1; done
  log "ready (pid $(read_pid "$PIDFILE"), log $LOGFILE)"
  print_url "$REDIS_PORT"
}

cmd_stop() {
  if ! pidfile_alive "$PIDFILE" "$PATTERN"; then
    log "not running"
    return 0
  fi
  local pid port
  pid=$(read_pid "$PIDFILE")
  port=$(running_port)
  log "stopping (pid $pid)"
  timeout 5 redis-cli -h "$REDIS_HOST" -p "$port" shutdown nosave >/dev/null 2>&1 || true
  stop_pid "$pid" 10 "$PATTERN" || die "could not stop pid $pid"
  rm -f "$PIDFILE" "$PORTFILE"
  log "stopped"
}

cmd_status() {
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    if ping "$port"; then
      log "running on $REDIS_HOST:$port (pid $(read_pid "$PIDFILE"))"
    else
      log "process running but no PONG on $REDIS_HOST:$port"
    fi
    print_url "$port"
    return 0
  fi
  log "stopped"
  return 3
}

dispatch "start|stop|status" "$@"
