#!/usr/bin/env bash
# Installs what the test suites need beyond npm packages, on Debian 12, idempotently:
#   PostgreSQL (+ contrib: pg_trgm, citext), redis-server, nginx, Chromium (/usr/bin/chromium),
#   Java 17 + Maven (for the Kafka broker jars), then the Kafka jars (infra/kafka/kafka.sh fetch).
#   stripe-mock (go install; the billing tests run Stripe's API against it) and MinIO (go install;
#   the documents object store); schemathesis (pip, in its own venv: the API contract run).
# Runs as root, or through sudo when available. Installs only what is missing; apt-get update
# runs at most once, and only when something has to be installed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '[install-test-deps] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    SUDO=(sudo -n)
  else
    SUDO=(__no_root__)
  fi
fi

DONE=()
have() { command -v "$1" >/dev/null 2>&1 || [[ -x /usr/sbin/$1 || -x /usr/bin/$1 ]]; }

pg_ok() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  [[ -n $bin && -x $bin/postgres && -x $bin/initdb && -x $bin/pg_ctl ]] || return 1
  local ver share
  ver=$(basename "$(dirname "$bin")")
  share=/usr/share/postgresql/$ver/extension
  [[ -f $share/pg_trgm.control && -f $share/citext.control ]]
}

java_ok() {
  have java || return 1
  local v
  v=$(java -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p')
  [[ -n $v && $v -ge 17 ]]
}

missing=()
add() { [[ " ${missing[*]} " == *" $1 "* ]] || missing+=("$@"); }
pg_ok || add postgresql postgresql-contrib
{ have redis-server && have redis-cli; } || add redis-server
have nginx || add nginx
[[ -x /usr/bin/chromium ]] || add chromium fonts-liberation
java_ok || add openjdk-17-jre-headless
have mvn || add maven

if ((${#missing[@]})); then
  [[ ${SUDO[0]:-} != __no_root__ ]] || die "need root (or passwordless sudo) to apt-get install ${missing[*]}"
  say "installing with apt-get: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    # no default cluster on 5432: the tests start their own server (infra/postgres.sh)
    "${SUDO[@]}" mkdir -p /etc/postgresql-common/createcluster.d
    echo 'create_main_cluster = false' |
      "${SUDO[@]}" tee /etc/postgresql-common/createcluster.d/countinghouse.conf >/dev/null
  fi
  t0=$SECONDS
  "${SUDO[@]}" apt-get update -q >/dev/null
  "${SUDO[@]}" apt-get install -y -q -o DPkg::Lock::Timeout=180 "${missing[@]}" >/dev/null
  say "apt-get done in $((SECONDS - t0))s"
  DONE+=("apt-get install ${missing[*]}")
else
  say "system packages already present (postgresql, redis-server, nginx, chromium, java, maven)"
fi

# re-check what the tests rely on
pg_ok || die "PostgreSQL with pg_trgm/citext still missing after install"
have redis-server || die "redis-server still missing"
have nginx || die "nginx still missing"
[[ -x /usr/bin/chromium ]] || die "/usr/bin/chromium still missing"
java_ok || die "Java 17+ still missing"
have mvn || die "maven still missing"

# Kafka broker jars (skips when present)
t0=$SECONDS
bash "$ROOT/infra/kafka/kafka.sh" fetch
DONE+=("kafka jars ready ($((SECONDS - t0))s)")

# stripe-mock: the billing service's Stripe path is tested against it
if command -v stripe-mock >/dev/null; then
  say "stripe-mock already on PATH ($(command -v stripe-mock))"
else
  GO=$(command -v go || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } || true)
  if [[ -z $GO ]]; then
    [[ ${SUDO[0]:-} != __no_root__ ]] || die "need root to apt-get install golang-go for stripe-mock"
    "${SUDO[@]}" apt-get install -y -q -o DPkg::Lock::Timeout=180 golang-go >/dev/null ||
      { "${SUDO[@]}" apt-get update -q >/dev/null && "${SUDO[@]}" apt-get install -y -q golang-go >/dev/null; }
    GO=$(command -v go)
  fi
  if [[ $(id -u) -eq 0 ]]; then gobin=/usr/local/bin; else gobin="$HOME/.local/bin"; fi
  mkdir -p "$gobin"
  say "go install github.com/stripe/stripe-mock@latest -> $gobin"
  GOBIN="$gobin" timeout 900 "$GO" install github.com/stripe/stripe-mock@latest
  DONE+=("stripe-mock installed in $gobin")
  [[ :$PATH: == *":$gobin:"* ]] || say "note: $gobin is not on PATH"
fi

# MinIO: the documents service's object store in the distributed product and its tests
if [[ -x /usr/local/bin/minio ]] || command -v minio >/dev/null; then
  say "minio already present ($(command -v minio || echo /usr/local/bin/minio))"
else
  GO=$(command -v go || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } || true)
  [[ -n $GO ]] || die "go is needed to build minio (apt-get install golang-go)"
  if [[ $(id -u) -eq 0 ]]; then gobin=/usr/local/bin; else gobin="$HOME/.local/bin"; fi
  mkdir -p "$gobin"
  say "go install github.com/minio/minio@latest -> $gobin (takes several minutes)"
  t0=$SECONDS
  GOBIN="$gobin" timeout 1800 "$GO" install github.com/minio/minio@latest || die "building minio failed or timed out"
  DONE+=("minio installed in $gobin ($((SECONDS - t0))s)")
fi

# k6: the load test (infra/k6/, npm run bench -- k6); a test checks its script with `k6 inspect`
if [[ -x /usr/local/bin/k6 ]] || command -v k6 >/dev/null; then
  say "k6 already present ($(command -v k6 || echo /usr/local/bin/k6))"
else
  GO=$(command -v go || { [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go; } || true)
  [[ -n $GO ]] || die "go is needed to build k6 (apt-get install golang-go)"
  if [[ $(id -u) -eq 0 ]]; then gobin=/usr/local/bin; else gobin="$HOME/.local/bin"; fi
  mkdir -p "$gobin"
  say "go install go.k6.io/k6@latest -> $gobin (takes several minutes)"
  t0=$SECONDS
  GOBIN="$gobin" timeout 1800 "$GO" install go.k6.io/k6@latest || die "building k6 failed or timed out"
  DONE+=("k6 installed in $gobin ($((SECONDS - t0))s)")
fi

# schemathesis (PyPI): gateway/test/schemathesis.test.ts runs it against the all-in-one server's OpenAPI
# document. Its own venv (SCHEMATHESIS_VENV, default ~/.local/share/countinghouse/schemathesis), pinned.
SCHEMATHESIS_VERSION=4.32.5
ST_VENV=${SCHEMATHESIS_VENV:-$HOME/.local/share/countinghouse/schemathesis}
if [[ -x $ST_VENV/bin/st ]] && "$ST_VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  say "schemathesis $SCHEMATHESIS_VERSION already in $ST_VENV"
else
  have python3 || die "python3 is needed for schemathesis"
  python3 -m venv "$ST_VENV" 2>/dev/null || {
    [[ ${SUDO[0]:-} != __no_root__ ]] || die "need root to apt-get install python3-venv"
    "${SUDO[@]}" apt-get install -y -q -o DPkg::Lock::Timeout=180 python3-venv >/dev/null
    python3 -m venv "$ST_VENV"
  }
  t0=$SECONDS
  "$ST_VENV/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
  DONE+=("schemathesis $SCHEMATHESIS_VERSION in $ST_VENV ($((SECONDS - t0))s)")
fi

for d in "${DONE[@]}"; do say "done: $d"; done
say "ready: $(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1), $(redis-server --version | cut -d' ' -f1-3), $(/usr/sbin/nginx -v 2>&1 || nginx -v 2>&1), /usr/bin/chromium, $(java -version 2>&1 | head -n1)"
