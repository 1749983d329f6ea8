# Shared helpers for the infra/ launchers. Source it: `. "$(dirname "$0")/lib.sh"`.
#
# Conventions kept by every launcher:
#   - progress and errors go to stderr; stdout carries only KEY=VALUE lines (DATABASE_URL=...),
#     so a caller can `eval "$(infra/postgres.sh start)"` or grep the line it needs;
#   - run state (data, logs, pid files) lives in infra/.run/<name> (gitignored), or under
#     INFRA_RUN_DIR/<name> when that is set;
#   - every wait is bounded.

# shellcheck shell=bash

INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$INFRA_DIR/.." && pwd)"
INFRA_RUN_BASE="${INFRA_RUN_DIR:-$INFRA_DIR/.run}"

log() { printf '[%s] %s\n' "${INFRA_NAME:-infra}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# run_dir NAME: create and print infra/.run/NAME
run_dir() {
  local d="$INFRA_RUN_BASE/$1"
  mkdir -p "$d" || die "cannot create $d"
  printf '%s\n' "$d"
}

# port_open HOST PORT: true when a TCP socket listens on PORT (read from /proc/net/tcp*, any address).
# Not by connecting: our ports lie in Linux's ephemeral range (32768-60999), and a connect() to a
# port nobody listens on yet can be given that same port as its own source port and connect to
# itself (TCP simultaneous open), which then holds the port so the server cannot bind it (seen with
# Kafka while wait_for_port polled). Falls back to a connection where /proc is not readable.
port_open() {
  local port_hex
  if [[ -r /proc/net/tcp ]]; then
    port_hex=$(printf '%04X' "$2")
    awk -v p=":$port_hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 } END { exit !found }' \
      /proc/net/tcp /proc/net/tcp6 2>/dev/null
    return
  fi
  (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
}

# wait_for_port HOST PORT TIMEOUT_SECONDS [PID]: poll until the port answers. Gives up early
# when PID (the server's process) has exited.
wait_for_port() {
  local host=$1 port=$2 timeout=$3 pid=${4:-}
  local deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    if port_open "$host" "$port"; then return 0; fi
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
      log "process $pid exited while waiting for $host:$port"
      return 1
    fi
    sleep 0.2
  done
  log "timed out after ${timeout}s waiting for $host:$port"
  return 1
}

# wait_for_port_closed HOST PORT TIMEOUT_SECONDS
wait_for_port_closed() {
  local deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    port_open "$1" "$2" || return 0
    sleep 0.2
  done
  return 1
}

# ensure_port_free HOST PORT ENVVAR: fail when another process already holds the port.
ensure_port_free() {
  if port_open "$1" "$2"; then
    die "$1:$2 is already in use by another process; set $3 to another port"
  fi
}

# pids_listening_on PORT: pids of the processes holding a listening TCP socket on PORT (any
# address), found through /proc (no ss/lsof needed). Only sees processes we may inspect.
pids_listening_on() {
  local port_hex inodes pid fd link
  port_hex=$(printf '%04X' "$1")
  inodes=$(awk -v p=":$port_hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $10 }' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null | sort -u)
  [[ -n $inodes ]] || return 0
  for pid in /proc/[0-9]*; do
    pid=${pid#/proc/}
    for fd in /proc/"$pid"/fd/*; do
      link=$(readlink "$fd" 2>/dev/null) || continue
      [[ $link == socket:\[*\] ]] || continue
      link=${link#socket:[}
      link=${link%]}
      if grep -qx -- "$link" <<<"$inodes"; then
        echo "$pid"
        break
      fi
    done
  done
}

# pid_alive PID [PATTERN]: the process exists and (when PATTERN is given) its command line
# matches PATTERN (an extended regex), so a pid reused by an unrelated process after a crash is not
# mistaken for our server.
pid_alive() {
  local pid=$1 pattern=${2:-}
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # a zombie is not alive
  local state
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)
  [[ $state == Z ]] && return 1
  if [[ -n $pattern ]]; then
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -Eq -- "$pattern" || return 1
  fi
  return 0
}

# read_pid PIDFILE: print the pid in the file (empty when missing).
read_pid() {
  [[ -f $1 ]] && head -n1 "$1" | tr -dc '0-9' || true
}

# pidfile_alive PIDFILE [PATTERN]: the pid file names a live process of ours. A pid file naming
# a dead (or foreign) process is stale: it is removed and the call fails.
pidfile_alive() {
  local file=$1 pattern=${2:-} pid
  pid=$(read_pid "$file")
  if [[ -n $pid ]] && pid_alive "$pid" "$pattern"; then
    return 0
  fi
  if [[ -f $file ]]; then
    log "removing stale pid file $file${pid:+ (pid $pid not running)}"
    rm -f "$file"
  fi
  return 1
}

# stop_pid PID TIMEOUT_SECONDS [PATTERN]: SIGTERM, wait up to TIMEOUT, then SIGKILL (bounded).
stop_pid() {
  local pid=$1 timeout=$2 pattern=${3:-}
  pid_alive "$pid" "$pattern" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    pid_alive "$pid" || return 0
    sleep 0.2
  done
  log "pid $pid still running after ${timeout}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 5))
  while ((SECONDS < deadline)); do
    pid_alive "$pid" || return 0
    sleep 0.1
  done
  log "pid $pid did not exit"
  return 1
}

# is_root: running as uid 0
is_root() { [[ $(id -u) -eq 0 ]]; }

# usage_and_exit "start|stop|status"
usage_and_exit() {
  echo "usage: $0 $1" >&2
  exit 2
}

# dispatch "start|stop|status" "$@": run cmd_<first argument> when it is one of the listed
# commands (its exit status is the script's), else print the usage and exit 2.
dispatch() {
  local commands=$1 cmd=${2:-}
  if [[ -n $cmd && $cmd != *'|'* && "|$commands|" == *"|$cmd|"* ]]; then
    "cmd_$cmd"
  else
    usage_and_exit "$commands"
  fi
}

# portfile_port PORTFILE DEFAULT: the port written to PORTFILE when the server started, else DEFAULT.
portfile_port() {
  local p
  p=$(cat "$1" 2>/dev/null | tr -dc '0-9' || true)
  printf '%s\n' "${p:-$2}"
}
