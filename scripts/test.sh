#!/usr/bin/env bash
# The test command (npm test): starts real PostgreSQL, Redis, Kafka and MinIO on loopback with infra/,
# builds the frontend for the browser tests (in the background, beside the servers' start and the first
# suites), runs every vitest project, then stops what it started.
# Extra arguments go to vitest (e.g. `npm test -- --project server`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

stop_list=()
build_pid=
build_dir=
cleanup() {
  local rc=$?
  # (a run that stops early stops the background build too: npm under its subshell, then the subshell)
  if [[ -n $build_pid ]]; then
    pkill -TERM -P "$build_pid" 2>/dev/null || true
    kill "$build_pid" 2>/dev/null || true
    wait "$build_pid" 2>/dev/null || true
  fi
  if [[ -n $build_dir ]]; then rm -rf "$build_dir"; fi
  for s in "${stop_list[@]}"; do bash "$s" stop >/dev/null 2>&1 || true; done
  exit $rc
}
trap cleanup EXIT INT TERM

# start SCRIPT KEY: start a server unless it already runs; sets VALUE from its KEY=value output.
# (No command substitution around it: stop_list must be updated in this shell.)
VALUE=
start() {
  local script=$1 key=$2 out
  if ! out=$(bash "$script" status 2>/dev/null); then
    stop_list+=("$script")
    out=$(bash "$script" start) || { echo "test: $script failed to start" >&2; exit 1; }
  fi
  VALUE=$(printf '%s\n' "$out" | grep "^$key=" | tail -n1)
  VALUE=${VALUE#"$key="}
  [[ -n $VALUE ]] || { echo "test: $script printed no $key" >&2; exit 1; }
}

t0=$(date +%s)
# The browser tests run against the built UI. It builds in the background while the servers start and
# the first suites run (issue 27): whatever serves the UI waits for TEST_FRONTEND_BUILD_STATUS, the file
# the build's exit code is written to (tests/frontend-build.ts), and a failed build fails those tests
# with its output, which is also printed here.
build_dir=$(mktemp -d)
export TEST_FRONTEND_BUILD_LOG=$build_dir/build.log TEST_FRONTEND_BUILD_STATUS=$build_dir/status
(
  s=0
  npm run build -w @countinghouse/frontend >"$TEST_FRONTEND_BUILD_LOG.part" 2>&1 || s=$?
  mv "$TEST_FRONTEND_BUILD_LOG.part" "$TEST_FRONTEND_BUILD_LOG"
  echo "test: frontend built, exit $s ($(( $(date +%s) - t0 ))s after the start)" | tee -a "$TEST_FRONTEND_BUILD_LOG" >&2
  echo "$s" >"$TEST_FRONTEND_BUILD_STATUS.part" && mv "$TEST_FRONTEND_BUILD_STATUS.part" "$TEST_FRONTEND_BUILD_STATUS"
) &
build_pid=$!
# The timing report (tests/timing-reporter.ts; docs/perf/tests.md).
export TEST_TIMINGS_FILE=${TEST_TIMINGS_FILE:-test-results/timings.json}

start infra/postgres.sh DATABASE_URL
export TEST_DATABASE_URL=$VALUE
start infra/redis.sh REDIS_URL
export TEST_REDIS_URL=$VALUE
bash infra/kafka/kafka.sh fetch >/dev/null
start infra/kafka/kafka.sh KAFKA_BROKERS
export TEST_KAFKA_BROKERS=$VALUE
# MinIO: the documents service's object store (S3 API); every S3_* line becomes TEST_S3_*
start infra/minio.sh S3_ENDPOINT
while IFS='=' read -r k v; do
  [[ $k == S3_* ]] && export "TEST_$k=$v"
done < <(bash infra/minio.sh status 2>/dev/null)
echo "test: PostgreSQL $TEST_DATABASE_URL, Redis $TEST_REDIS_URL, Kafka $TEST_KAFKA_BROKERS, MinIO $TEST_S3_ENDPOINT ($(( $(date +%s) - t0 ))s)"


# Every project (`npm test -- --project x` runs just that one). The exit code is vitest's, except that a
# run whose summary reports a failed test or an unhandled error fails even if vitest ended with 0 (a
# global set-up's teardown once left it there).
log=$(mktemp)
set +e
npx vitest run "$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
# The build's end (it ran beside the suites); its failure fails the run even when no test needed the UI.
# (Nothing is printed after vitest's output when it succeeded: CI reads the summary's closing line.)
build_rc=0
wait "$build_pid" || true
build_pid=
[[ -f $TEST_FRONTEND_BUILD_STATUS ]] && build_rc=$(cat "$TEST_FRONTEND_BUILD_STATUS") || build_rc=1
if [[ $build_rc -ne 0 ]]; then
  cat "$TEST_FRONTEND_BUILD_LOG" >&2 2>/dev/null || true
  echo "test: the frontend build failed (exit $build_rc)" >&2
  [[ $rc -eq 0 ]] && rc=1
fi
plain=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
rm -f "$log"
if [[ $rc -eq 0 ]] && grep -qE '^tests: [0-9]+ passed, [1-9]|^ +Errors +[1-9]|^ +Test Files +[1-9][0-9]* failed' <<<"$plain"; then
  echo "test: the summary reports failures but vitest exited 0; failing the run" >&2
  rc=1
fi
exit "$rc"
