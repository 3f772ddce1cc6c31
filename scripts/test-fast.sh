#!/usr/bin/env bash
# The fast tier for the development loop: domain, config, API and operator API tests on SQLite
# only (no browser, no PostgreSQL, no processes, no bench or drills), several files at a time
# (each makes its own databases and ports). Ends with the slowest files and a summary line
# with the counts (scripts/test-timings-reporter.mjs). CI runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
files=()
for file in test/domain/*.test.ts test/config/*.test.ts test/api/*.test.ts test/admin/*.test.ts; do
  # The linters run as processes of their own, for minutes: npm test runs them.
  [ "$file" = test/api/openapi-lint.test.ts ] || files+=("$file")
done
node --import tsx --test --test-concurrency="${TOURDESK_TEST_CONCURRENCY:-4}" \
  --test-reporter=dot --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-timings-reporter.mjs --test-reporter-destination=stdout \
  "${files[@]}"
