#!/usr/bin/env bash
# Debian's nginx as a plain reverse proxy, for benchmarking our gateway against another proxy in the
# same run. Not a system service: a generated config, pid/logs/temp dirs under infra/.run/nginx.
#
#   infra/nginx/nginx.sh start    prints NGINX_URL=http://127.0.0.1:PORT on stdout
#   infra/nginx/nginx.sh stop
#   infra/nginx/nginx.sh status   prints NGINX_URL=... and exits 0 when running, exits 3 when not
#
# Env: NGINX_PORT (58080), NGINX_UPSTREAM (127.0.0.1:3001), INFRA_RUN_DIR (infra/.run).
set -euo pipefail
INFRA_NAME=nginx
# shellcheck source=../lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lib.sh"

NGINX_HOST=127.0.0.1
NGINX_PORT="${NGINX_PORT:-58080}"
NGINX_UPSTREAM="${NGINX_UPSTREAM:-127.0.0.1:3001}"
NGINX_BIN="${NGINX_BIN:-$(command -v nginx || echo /usr/sbin/nginx)}"
START_TIMEOUT=15
PATTERN='nginx'
DIR="$(run_dir nginx)"
CONF="$DIR/nginx.conf"
PIDFILE="$DIR/nginx.pid"
PORTFILE="$DIR/port"
ERRLOG="$DIR/error.log"

[[ -x $NGINX_BIN ]] || die "nginx not found (apt-get install nginx)"

print_url() { printf 'NGINX_URL=http://%s:%s\n' "$NGINX_HOST" "$1"; }

running_port() { portfile_port "$PORTFILE" "$NGINX_PORT"; }

write_config() {
  local user_line="" t
  mkdir -p "$DIR/tmp"
  for t in body proxy fastcgi uwsgi scgi; do mkdir -p "$DIR/tmp/$t"; done
  if is_root; then
    # workers drop root; give them the temp dirs
    local wu=www-data
    id "$wu" >/dev/null 2>&1 || wu=nobody
    user_line="user $wu;"
    chown -R "$wu" "$DIR/tmp"
  fi
  cat >"$CONF" <<EOF
# written by infra/nginx/nginx.sh at every start
$user_line
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
pid $PIDFILE;
error_log $ERRLOG warn;

events {
  worker_connections 8192;
}

http {
  access_log off;
  client_body_temp_path $DIR/tmp/body;
  proxy_temp_path $DIR/tmp/proxy;
  fastcgi_temp_path $DIR/tmp/fastcgi;
  uwsgi_temp_path $DIR/tmp/uwsgi;
  scgi_temp_path $DIR/tmp/scgi;

  sendfile on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 100000;
  client_max_body_size 100m;

  upstream backend {
    server $NGINX_UPSTREAM;
    keepalive 64;
    keepalive_requests 100000;
  }

  server {
    listen $NGINX_HOST:$NGINX_PORT;

    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
    }
  }
}
EOF
}

# After the master crashed (kill -9), its worker lives on, orphaned, and keeps our port. Stop
# such workers: nginx worker processes, re-parented to init, listening on our port.
reap_orphan_workers() {
  local pid
  for pid in $(pids_listening_on "$NGINX_PORT"); do
    if pid_alive "$pid" '^nginx: worker process' && [[ $(awk '{print $4}' "/proc/$pid/stat") == 1 ]]; then
      log "stopping orphaned nginx worker $pid left on port $NGINX_PORT"
      stop_pid "$pid" 5 'nginx' || true
    fi
  done
  return 0
}

cmd_start() {
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    log "already running on $NGINX_HOST:$port (pid $(read_pid "$PIDFILE"))"
    print_url "$port"
    return 0
  fi
  reap_orphan_workers
  ensure_port_free "$NGINX_HOST" "$NGINX_PORT" NGINX_PORT
  write_config
  local out
  if ! out=$("$NGINX_BIN" -t -q -p "$DIR" -c "$CONF" -e "$ERRLOG" 2>&1); then
    printf '%s\n' "$out" >&2
    die "config test failed ($CONF)"
  fi
  log "starting on $NGINX_HOST:$NGINX_PORT -> $NGINX_UPSTREAM"
  # setsid + exec: the pid file names the nginx master, which outlives this shell
  setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PIDFILE" \
    "$NGINX_BIN" -p "$DIR" -c "$CONF" -e "$ERRLOG" </dev/null >>"$DIR/nginx.out" 2>&1 &
  local deadline=$((SECONDS + 5)) pid=""
  until [[ -n $pid ]] || ((SECONDS >= deadline)); do
    pid=$(read_pid "$PIDFILE")
    [[ -n $pid ]] || sleep 0.05
  done
  [[ -n $pid ]] || die "nginx did not start (no pid file)"
  printf '%s\n' "$NGINX_PORT" >"$PORTFILE"
  if ! wait_for_port "$NGINX_HOST" "$NGINX_PORT" "$START_TIMEOUT" "$pid"; then
    tail -n 20 "$ERRLOG" >&2 || true
    stop_pid "$pid" 5 "$PATTERN" || true
    rm -f "$PIDFILE" "$PORTFILE"
    die "nginx failed to start (log: $ERRLOG)"
  fi
  log "ready (pid $pid)"
  print_url "$NGINX_PORT"
}

cmd_stop() {
  if ! pidfile_alive "$PIDFILE" "$PATTERN"; then
    log "not running"
    return 0
  fi
  local pid
  pid=$(read_pid "$PIDFILE")
  log "stopping (pid $pid)"
  stop_pid "$pid" 10 "$PATTERN" || die "could not stop pid $pid"
  rm -f "$PIDFILE" "$PORTFILE"
  log "stopped"
}

cmd_status() {
  if pidfile_alive "$PIDFILE" "$PATTERN"; then
    local port
    port=$(running_port)
    log "running on $NGINX_HOST:$port (pid $(read_pid "$PIDFILE"))"
    print_url "$port"
    return 0
  fi
  log "stopped"
  return 3
}

dispatch "start|stop|status" "$@"
