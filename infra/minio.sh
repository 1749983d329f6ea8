#!/usr/bin/env bash
# MinIO (an S3-compatible object store) for the documents service's files, from /usr/local/bin/minio
# (scripts/install-test-deps.sh builds it with `go install`).
#
#   infra/minio.sh start    start (data kept between starts), create the bucket; prints on stdout
#                             S3_ENDPOINT=http://127.0.0.1:PORT  S3_BUCKET=...  S3_REGION=...
#                             S3_ACCESS_KEY_ID=...  S3_SECRET_ACCESS_KEY=...  S3_FORCE_PATH_STYLE=true
#   infra/minio.sh stop     SIGTERM (then SIGKILL if needed)
#   infra/minio.sh status   prints the same lines and exits 0 when running, exits 3 when not
#
# Env: MINIO_PORT (59000), MINIO_BUCKET (countinghouse-documents), MINIO_ROOT_USER (countinghouse),
#      MINIO_ROOT_PASSWORD (a random one, made once and kept in the run folder), MINIO_BIN
#      (/usr/local/bin/minio, else minio on PATH), INFRA_RUN_DIR (infra/.run).
# Listens on 127.0.0.1 only; the web console is off. Data in infra/.run/minio/data.
set -euo pipefail
INFRA_NAME=minio
# shellcheck source=lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

MINIO_PORT="${MINIO_PORT:-59000}"
MINIO_HOST=127.0.0.1
MINIO_BUCKET="${MINIO_BUCKET:-countinghouse-documents}"
MINIO_REGION=us-east-1
START_TIMEOUT=30
DIR="$(run_dir minio)"
PIDFILE="$DIR/minio.pid"
PORTFILE="$DIR/port"
LOGFILE="$DIR/minio.log"
CREDFILE="$DIR/credentials"
DATA="$DIR/data"
PATTERN='minio server'

if [[ -n ${MINIO_BIN:-} ]]; then
  BIN=$MINIO_BIN
elif [[ -x /usr/local/bin/minio ]]; then
  BIN=/usr/local/bin/minio
else
  BIN=$(command -v minio || true)
fi

running_port() { portfile_port "$PORTFILE" "$MINIO_PORT"; }

# The root credentials: from the environment, else made once and kept (the data needs the same ones).
credentials() {
  if [[ ! -f $CREDFILE ]]; then
    local user=${MINIO_ROOT_USER:-countinghouse}
    local pass=${MINIO_ROOT_PASSWORD:-$(head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 32)}
    (umask 077 && printf '%s\n%s\n' "$user" "$pass" >"$CREDFILE")
  fi
  ACCESS_KEY=$(sed -n 1p "$CREDFILE")
  SECRET_KEY=$(sed -n 2p "$CREDFILE")
}

print_env() {
  credentials
  printf 'S3_ENDPOINT=http://%s:%s\n' "$MINIO_HOST" "$1"
  printf 'S3_BUCKET=%s\n' "$(cat "$DIR/bucket" 2>/dev/null || echo "$MINIO_BUCKET")"
  printf 'S3_REGION=%s\n' "$MINIO_REGION"
  printf 'S3_ACCESS_KEY_ID=%s\n' "$ACCESS_KEY"
  printf 'S3_SECRET_ACCESS_KEY=%s\n' "$SECRET_KEY"
  printf 'S3_FORCE_PATH_STYLE=true\n'
}

ready() {
  [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "http://$MINIO_HOST:$1/minio/health/ready" || true) == 200 ]]
}

# s3 METHOD PORT PATH: a signed request (curl's AWS Signature V4); prints the HTTP status.
s3() {
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X "$1" \
    --aws-sigv4 "aws:amz:$MINIO_REGION:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
    "http://$MINIO_HOST:$2/$3" || true
}

ensure_bucket() {
  local port=$1 code
  credentials
  code=$(s3 HEAD "$port" "$MINIO_BUCKET")
  if [[ $code == 200 ]]; then return 0; fi
  code=$(s3 PUT "$port" "$MINIO_BUCKET")
  [[ $code == 200 ]] || die "could not create bucket $MINIO_BUCKET (HTTP $code)"
  log "bucket $MINIO_BUCKET created"
}

cmd_start() {
  [[ -n $BIN && -x $BIN ]] ||
    die "minio not found (run scripts/install-test-deps.sh, or GOBIN=/usr/local/bin go install github.com/minio/minio@latest)"
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    log "already running on $MINIO_HOST:$port (pid $(read_pid "$PIDFILE"))"
    ensure_bucket "$port"
    printf '%s\n' "$MINIO_BUCKET" >"$DIR/bucket"
    print_env "$port"
    return 0
  fi
  ensure_port_free "$MINIO_HOST" "$MINIO_PORT" MINIO_PORT
  credentials
  mkdir -p "$DATA"
  log "starting minio on $MINIO_HOST:$MINIO_PORT (data $DATA)"
  : >"$LOGFILE"
  MINIO_ROOT_USER=$ACCESS_KEY MINIO_ROOT_PASSWORD=$SECRET_KEY MINIO_BROWSER=off \
    MINIO_UPDATE=off MINIO_CI_CD=1 \
    setsid "$BIN" server --quiet --address "$MINIO_HOST:$MINIO_PORT" "$DATA" >>"$LOGFILE" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "$pid" >"$PIDFILE"
  printf '%s\n' "$MINIO_PORT" >"$PORTFILE"
  local deadline=$((SECONDS + START_TIMEOUT))
  until ready "$MINIO_PORT"; do
    if ! pid_alive "$pid"; then
      tail -n 20 "$LOGFILE" >&2 || true
      rm -f "$PIDFILE"
      die "minio exited during start (log: $LOGFILE)"
    fi
    if ((SECONDS >= deadline)); then
      tail -n 20 "$LOGFILE" >&2 || true
      die "minio not ready on $MINIO_HOST:$MINIO_PORT within ${START_TIMEOUT}s"
    fi
    sleep 0.2
  done
  ensure_bucket "$MINIO_PORT"
  printf '%s\n' "$MINIO_BUCKET" >"$DIR/bucket"
  log "ready (pid $pid, log $LOGFILE)"
  print_env "$MINIO_PORT"
}

cmd_stop() {
  if ! pidfile_alive "$PIDFILE" "$PATTERN"; then
    log "not running"
    return 0
  fi
  local pid
  pid=$(read_pid "$PIDFILE")
  log "stopping (pid $pid)"
  stop_pid "$pid" 15 "$PATTERN" || die "could not stop pid $pid"
  rm -f "$PIDFILE" "$PORTFILE"
  log "stopped"
}

cmd_status() {
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    if ready "$port"; then
      log "running on $MINIO_HOST:$port (pid $(read_pid "$PIDFILE"))"
    else
      log "process running but not ready on $MINIO_HOST:$port"
    fi
    print_env "$port"
    return 0
  fi
  log "stopped"
  return 3
}

dispatch "start|stop|status" "$@"
