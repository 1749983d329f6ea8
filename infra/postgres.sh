#!/usr/bin/env bash
# Throwaway PostgreSQL for tests, from Debian's binaries (newest /usr/lib/postgresql/*/bin).
#
#   infra/postgres.sh start    init (first time) + start; prints DATABASE_URL=... on stdout
#   infra/postgres.sh stop     pg_ctl stop -m fast
#   infra/postgres.sh status   prints DATABASE_URL=... and exits 0 when running, exits 3 when not
#
# Env: PG_PORT (55432), PG_DATA_DIR (infra/.run/postgres/data), PG_BIN (newest Debian bin dir),
#      INFRA_RUN_DIR (infra/.run).
# Listens on 127.0.0.1 only, TCP only (no unix socket), trust auth for user postgres, tuned for
# tests (fsync=off, synchronous_commit=off, full_page_writes=off). As root the server runs as the
# `postgres` OS user.
set -euo pipefail
INFRA_NAME=postgres
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

PG_PORT="${PG_PORT:-55432}"
PG_HOST=127.0.0.1
START_TIMEOUT=30

find_pg_bin() {
  if [[ -n ${PG_BIN:-} ]]; then
    [[ -x $PG_BIN/postgres ]] || die "PG_BIN=$PG_BIN has no postgres binary"
    printf '%s\n' "$PG_BIN"
    return
  fi
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  [[ -n $d && -x $d/postgres ]] ||
    die "no PostgreSQL under /usr/lib/postgresql/*/bin (run scripts/install-test-deps.sh, or apt-get install postgresql)"
  printf '%s\n' "$d"
}

# as_pg CMD...: run as the postgres OS user when we are root, else as ourselves.
as_pg() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

ensure_pg_user() {
  is_root || return 0
  if ! id postgres >/dev/null 2>&1; then
    log "creating system user postgres"
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
  fi
}

# Where the data lives. As root the server runs as `postgres`, which must reach the folder: when
# the repo sits somewhere it cannot enter (say under /root), fall back to a folder in /var/tmp
# named after the run dir path (deterministic, so stop/status find it too).
resolve_dirs() {
  if [[ -n ${PG_DATA_DIR:-} ]]; then
    DATA_DIR="$PG_DATA_DIR"
    PG_RUN="$(dirname "$DATA_DIR")"
  else
    PG_RUN="$INFRA_RUN_BASE/postgres"
    if is_root && id postgres >/dev/null 2>&1; then
      mkdir -p "$INFRA_RUN_BASE"
      if ! runuser -u postgres -- test -x "$INFRA_RUN_BASE" 2>/dev/null; then
        local tag
        tag=$(printf '%s' "$INFRA_RUN_BASE" | md5sum | cut -c1-12)
        PG_RUN="/var/tmp/countinghouse-$tag/postgres"
        log "user postgres cannot enter $INFRA_RUN_BASE; using $PG_RUN"
      fi
    fi
    DATA_DIR="$PG_RUN/data"
  fi
  LOG_FILE="$DATA_DIR/server.log"
}

# pg_running: the postmaster in DATA_DIR is alive. Removes a stale postmaster.pid.
pg_running() {
  local pidfile="$DATA_DIR/postmaster.pid" pid
  [[ -f $pidfile ]] || return 1
  pid=$(head -n1 "$pidfile" | tr -dc '0-9')
  if [[ -n $pid ]] && pid_alive "$pid" 'postgres|postmaster'; then
    return 0
  fi
  log "removing stale $pidfile (pid ${pid:-?} not running)"
  rm -f "$pidfile"
  return 1
}

# The port of the running server (line 4 of postmaster.pid), falling back to PG_PORT.
running_port() {
  local p
  p=$(sed -n 4p "$DATA_DIR/postmaster.pid" 2>/dev/null | tr -dc '0-9' || true)
  printf '%s\n' "${p:-$PG_PORT}"
}

print_url() {
  printf 'DATABASE_URL=postgres://postgres@%s:%s/postgres\n' "$PG_HOST" "$1"
}

check_extensions_installed() {
  local share
  share=$("$BIN/pg_config" --sharedir 2>/dev/null || true)
  [[ -n $share ]] || share="/usr/share/postgresql/$(basename "$(dirname "$BIN")")"
  local ext
  for ext in pg_trgm citext; do
    [[ -f $share/extension/$ext.control ]] ||
      die "extension $ext is missing ($share/extension/$ext.control); install postgresql-contrib"
  done
}

init_cluster() {
  if [[ -f $DATA_DIR/PG_VERSION ]]; then
    local have want
    have=$(cat "$DATA_DIR/PG_VERSION")
    want=$("$BIN/postgres" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)*.*/\1/')
    [[ $have == "$want" ]] ||
      die "$DATA_DIR holds a PostgreSQL $have cluster but the binaries are $want; remove the folder"
    return 0
  fi
  if [[ -d $DATA_DIR ]] && [[ -n $(ls -A "$DATA_DIR" 2>/dev/null) ]]; then
    die "$DATA_DIR exists, is not empty and holds no cluster; remove it"
  fi
  mkdir -p "$PG_RUN"
  is_root && chown postgres:postgres "$PG_RUN"
  local locale=C
  if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale=C.UTF-8; fi
  log "initdb $DATA_DIR (locale $locale)"
  local out
  if ! out=$(as_pg "$BIN/initdb" -D "$DATA_DIR" -U postgres --auth=trust -E UTF8 \
    --locale="$locale" --no-sync 2>&1); then
    printf '%s\n' "$out" >&2
    die "initdb failed"
  fi
}

write_config() {
  local conf="$DATA_DIR/countinghouse.conf"
  as_pg tee "$conf" >/dev/null <<EOF
# written by infra/postgres.sh at every start
listen_addresses = '$PG_HOST'
port = $PG_PORT
unix_socket_directories = ''
max_connections = 300
shared_buffers = 256MB
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
logging_collector = off
log_min_messages = warning
log_line_prefix = '%m [%p] '
EOF
  if ! grep -q "include_if_exists = 'countinghouse.conf'" "$DATA_DIR/postgresql.conf"; then
    printf "\ninclude_if_exists = 'countinghouse.conf'\n" | as_pg tee -a "$DATA_DIR/postgresql.conf" >/dev/null
  fi
}

cmd_start() {
  ensure_pg_user
  resolve_dirs
  if pg_running; then
    local port
    port=$(running_port)
    log "already running on $PG_HOST:$port (data $DATA_DIR)"
    print_url "$port"
    return 0
  fi
  check_extensions_installed
  init_cluster
  write_config
  ensure_port_free "$PG_HOST" "$PG_PORT" PG_PORT
  log "starting $BIN/postgres on $PG_HOST:$PG_PORT"
  if ! as_pg "$BIN/pg_ctl" start -D "$DATA_DIR" -l "$LOG_FILE" -w -t "$START_TIMEOUT" -s >/dev/null 2>&1; then
    tail -n 30 "$LOG_FILE" >&2 2>/dev/null || true
    die "pg_ctl start failed (log: $LOG_FILE)"
  fi
  local deadline=$((SECONDS + START_TIMEOUT))
  until "$BIN/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT" -U postgres -t 2; do
    if ((SECONDS >= deadline)); then
      tail -n 30 "$LOG_FILE" >&2 2>/dev/null || true
      die "pg_isready did not answer within ${START_TIMEOUT}s"
    fi
    sleep 0.2
  done
  local n
  n=$("$BIN/psql" -X -qtA -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres \
    -c "select count(*) from pg_available_extensions where name in ('pg_trgm','citext')")
  [[ $n == 2 ]] || die "pg_trgm/citext not available to the server"
  log "ready (data $DATA_DIR, log $LOG_FILE)"
  print_url "$PG_PORT"
}

cmd_stop() {
  resolve_dirs
  if ! pg_running; then
    log "not running"
    return 0
  fi
  log "stopping (data $DATA_DIR)"
  if ! as_pg "$BIN/pg_ctl" stop -D "$DATA_DIR" -m fast -w -t 30 -s >/dev/null 2>&1; then
    log "fast shutdown timed out; trying immediate"
    as_pg "$BIN/pg_ctl" stop -D "$DATA_DIR" -m immediate -w -t 15 -s >/dev/null 2>&1 ||
      die "could not stop the server in $DATA_DIR"
  fi
  log "stopped"
}

cmd_status() {
  resolve_dirs
  if pg_running; then
    local port
    port=$(running_port)
    if "$BIN/pg_isready" -q -h "$PG_HOST" -p "$port" -U postgres -t 2; then
      log "running on $PG_HOST:$port (data $DATA_DIR)"
    else
      log "process running on $PG_HOST:$port but not accepting connections (data $DATA_DIR)"
    fi
    print_url "$port"
    return 0
  fi
  log "stopped"
  return 3
}

BIN=$(find_pg_bin)
dispatch "start|stop|status" "$@"
