#!/usr/bin/env bash
# The whole test suite: once on SQLite, then once more on PostgreSQL when it is reachable
# (a fresh database per run, dropped afterwards). Without PostgreSQL the PostgreSQL pass is
# skipped with a message, except under CI=true, where that is a failure.
# Node 20's `node --test DIR` finds no tests, so the files are listed by glob.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(test/**/*.test.ts)
if [ ${#files[@]} -eq 0 ]; then
  echo "no test files found under test/" >&2
  exit 1
fi
# The browser, benchmark and drill tests exercise the page, the bench and the drills, not the
# store (the bench and drills pick their own databases): one pass is enough.
store_files=()
for file in "${files[@]}"; do
  case "$file" in test/browser/*|test/bench/*|test/drill/*) ;; *) store_files+=("$file") ;; esac
done

# A test that hangs fails after 5 minutes instead of holding the run until CI gives up.
run_suite() {
  node --import tsx --test --test-timeout=300000 --test-reporter=spec "$@"
}

echo "== tourdesk test suite on SQLite"
sqlite_status=0
run_suite "${files[@]}" || sqlite_status=$?

pg_status=0
if pg_url=$(node --import tsx scripts/pg-test-database.ts create); then
  # Dropped however the run ends, so an interrupted run leaves no database behind.
  trap 'node --import tsx scripts/pg-test-database.ts drop "$pg_url" || true' EXIT
  echo "== tourdesk test suite on PostgreSQL ($pg_url)"
  TEST_DATABASE_URL="$pg_url" run_suite "${store_files[@]}" || pg_status=$?
elif [ "${CI:-}" = "true" ]; then
  echo "PostgreSQL is not reachable and CI=true: the PostgreSQL suite cannot run" >&2
  pg_status=1
else
  echo "== SKIPPED the PostgreSQL suite: PostgreSQL is not reachable (set TOURDESK_TEST_PG_URL or start it)"
fi

echo "== SQLite suite: $([ $sqlite_status -eq 0 ] && echo passed || echo FAILED); PostgreSQL suite: $([ $pg_status -eq 0 ] && echo passed || echo FAILED)"
[ $sqlite_status -eq 0 ] && [ $pg_status -eq 0 ]
