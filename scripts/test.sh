#!/usr/bin/env bash
# The whole test suite, on SQLite and again on PostgreSQL when it is reachable (a fresh
# database per run, dropped afterwards). Without PostgreSQL the PostgreSQL pass is skipped
# with a message, except under CI=true, where that is a failure.
#
# Two groups. Most files run side by side, TOURDESK_TEST_CONCURRENCY processes at a time (2 by
# default) in each pass, the SQLite and the PostgreSQL pass at the same time: each test makes
# its own SQLite files, ports and PostgreSQL database (test/helpers/database.ts), and spends
# most of its time waiting on HTTP or a database. These files run in TOURDESK_TEST_GROUPS
# groups (16 by default), each group's files one after another in one process
# (scripts/test-groups.mjs): a process costs seconds of CPU before its first test is done.
# Then the files that must run alone run one at a time, each in its own process, with nothing
# beside them: they bound how long something takes, start several server processes or a
# browser under time limits, or measure (bench, drills).
# The run ends with the slowest 10 files and one summary line (scripts/test-summary.mjs).
# Node 20's `node --test DIR` finds no tests, so the files are listed by glob.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
# `npm test -- FILE...` runs only those files, in the same groups and passes.
if [ $# -gt 0 ]; then files=("$@"); else files=(test/**/*.test.ts); fi
if [ ${#files[@]} -eq 0 ]; then
  echo "no test files found under test/" >&2
  exit 1
fi

# Run alone: each of these times something against a bound (shutdown, propagation,
# fail-fast, sign-in timing, the linters' two minutes, 60 sign-ins at once each getting a
# pooled connection within the pool's wait) or starts several server processes that must meet
# one. Side by side on a machine loaded by other work, the linters, the 60 sign-ins, the
# three-node email test and the browser tests' server starts missed theirs (the browser files
# have a group of their own, below).
alone_files=(
  test/scale/*.test.ts
  test/concurrency/*.test.ts
  test/bench/*.test.ts
  test/drill/*.test.ts
  test/email/multi-node.test.ts
  test/webhooks/multi-node.test.ts
  test/webhooks/shutdown.test.ts
  test/api/openapi-lint.test.ts
  test/admin/staff.test.ts
  test/admin/sign-in-races.test.ts
)
is_alone() {
  local candidate
  for candidate in "${alone_files[@]}"; do [ "$candidate" = "$1" ] && return 0; done
  return 1
}
# The browser, benchmark and drill tests exercise the page, the bench and the drills, not the
# store (the bench and drills pick their own databases): one pass is enough.
in_store_pass() {
  case "$1" in test/browser/*|test/bench/*|test/drill/*) return 1 ;; *) return 0 ;; esac
}
# The files side by side run in both passes: none of them is a browser, bench or drill file.
together=() sqlite_alone=() sqlite_browser=() pg_alone=()
for file in "${files[@]}"; do
  if [[ $file == test/browser/* ]]; then
    sqlite_browser+=("$file")
  elif is_alone "$file"; then
    sqlite_alone+=("$file")
    if in_store_pass "$file"; then pg_alone+=("$file"); fi
  else
    together+=("$file")
  fi
done

concurrency=${TOURDESK_TEST_CONCURRENCY:-2}
started_ms=$(date +%s%3N)
mkdir -p test-output
# The tests that start the service as its own process start this bundle of the sources as they
# are now (test/helpers/server-process.ts), built once for the whole run instead of once per file.
server_bundle=test-output/test-server/server.js
rm -rf test-output/test-server
node --import tsx scripts/build.ts --outfile "$server_bundle"
export TOURDESK_TEST_SERVER_BUNDLE="$PWD/$server_bundle"
results=test-output/test-results.jsonl
: > "$results"
# Every file runs bundled (scripts/bundle-tests.ts, as in npm run test:fast), with plain node:
# loading src/ through tsx cost about 1.9 s of CPU in each file's process, in both passes. One
# bundling step for the whole run, into a folder of the run's own, removed at the end; the
# source maps make failures name the TypeScript lines. Processes a test starts itself (the CLI,
# the bench, the drills) still run through tsx, as they say.
bundles_dir=test-output/test-bundles-$$
cleanup() {
  rm -rf "$bundles_dir"
  if [ -n "${pg_url:-}" ]; then node --import tsx scripts/pg-test-database.ts drop "$pg_url" || true; fi
}
trap cleanup EXIT
bundle_list=$(node --import tsx scripts/bundle-tests.ts "$bundles_dir" "${files[@]}")
mapfile -t bundle_paths <<< "$bundle_list"
declare -A bundle_of
for i in "${!files[@]}"; do bundle_of[${files[$i]}]=${bundle_paths[$i]}; done
together_groups=()
if [ ${#together[@]} -gt 0 ]; then
  together_bundles=()
  for file in "${together[@]}"; do together_bundles+=("${bundle_of[$file]}"); done
  mapfile -t together_groups < <(node scripts/test-groups.mjs "$bundles_dir" "${TOURDESK_TEST_GROUPS:-16}" "${together_bundles[@]}")
fi

# run_suite LABEL CONCURRENCY FILE...: one `node --test` over the files' bundles (or groups of
# them, given as they are), spec output and the timings record.
# A test that hangs fails after 15 minutes instead of holding the run until CI gives up. Node 20
# times each whole file (each group, for the files side by side: 1.5 minutes on average on
# 2026-11-27) by the same limit, and on a machine loaded by other work the files
# with the most tests took over 5 minutes beside others (test/api/availability.test.ts on
# PostgreSQL: 24 tests, each on freshly migrated schema).
run_suite() {
  local label=$1 jobs=$2 file bundles=()
  shift 2
  [ $# -gt 0 ] || return 0
  for file in "$@"; do bundles+=("${bundle_of[$file]:-$file}"); done
  TOURDESK_TEST_LABEL="$label" TOURDESK_TEST_RESULTS="$results" \
    node --enable-source-maps --test --test-concurrency="$jobs" --test-timeout=900000 \
      --test-reporter=spec --test-reporter-destination=stdout \
      --test-reporter=./scripts/test-timings-reporter.mjs --test-reporter-destination=stdout "${bundles[@]}"
}

pg_url=""
# Dropped however the run ends (cleanup, above), so an interrupted run leaves no database behind.
if pg_url=$(node --import tsx scripts/pg-test-database.ts create); then
  :
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable and CI=true: the PostgreSQL suite cannot run" >&2
  pg_url=""
  pg_missing=1
else
  echo "== SKIPPED the PostgreSQL suite: PostgreSQL is not reachable (set TOURDESK_TEST_PG_URL or start it)"
  pg_url=""
fi

sqlite_status=0
pg_status=${pg_missing:-0}
# The PostgreSQL pass of the side-by-side group writes to a log, printed once the SQLite
# pass is done, so the two passes' lines do not interleave.
pg_log=test-output/test-postgres.log
pg_pid=""
if [ -n "$pg_url" ]; then
  TEST_DATABASE_URL="$pg_url" run_suite postgres "$concurrency" "${together_groups[@]}" > "$pg_log" 2>&1 &
  pg_pid=$!
fi
echo "== tourdesk test suite on SQLite: ${#together[@]} files in ${#together_groups[@]} groups, $concurrency at a time (PostgreSQL's beside it)"
run_suite sqlite "$concurrency" "${together_groups[@]}" || sqlite_status=$?
if [ -n "$pg_pid" ]; then
  wait "$pg_pid" || pg_status=$?
  echo "== tourdesk test suite on PostgreSQL ($pg_url): ${#together[@]} files in ${#together_groups[@]} groups, $concurrency at a time"
  cat "$pg_log"
fi

# The browser files run two at a time (TOURDESK_BROWSER_CONCURRENCY), with nothing else beside
# them: each starts its own server and Chromium, and much of a file's time is the page waiting
# on its server or the other way round. On 2026-11-27 under a benchmark's load (load average 8
# on the 2 cores) the 18 files took 3 min 4 s two at a time and 4 min 22 s one at a time, and
# every test met its bounds both ways.
browser_concurrency=${TOURDESK_BROWSER_CONCURRENCY:-2}
echo "== tourdesk test suite, browser files, on SQLite: ${#sqlite_browser[@]} files, $browser_concurrency at a time"
run_suite "sqlite, browser" "$browser_concurrency" "${sqlite_browser[@]}" || sqlite_status=$?
echo "== tourdesk test suite, files that run alone, on SQLite: ${#sqlite_alone[@]} files"
run_suite "sqlite, alone" 1 "${sqlite_alone[@]}" || sqlite_status=$?
if [ -n "$pg_url" ]; then
  echo "== tourdesk test suite, files that run alone, on PostgreSQL: ${#pg_alone[@]} files"
  TEST_DATABASE_URL="$pg_url" run_suite "postgres, alone" 1 "${pg_alone[@]}" || pg_status=$?
fi

node scripts/test-summary.mjs "$results" "$started_ms"
echo "== SQLite suite: $([ $sqlite_status -eq 0 ] && echo passed || echo FAILED); PostgreSQL suite: $([ $pg_status -eq 0 ] && echo passed || echo FAILED)"
[ $sqlite_status -eq 0 ] && [ $pg_status -eq 0 ]
