#!/usr/bin/env bash
# The fast tier for the development loop: domain, config, API and operator API tests on SQLite
# only (no browser, no PostgreSQL, no processes, no bench or drills), several groups of files at
# a time (each test makes its own databases and ports). Ends with the slowest files and a
# summary line with the counts (scripts/test-timings-reporter.mjs). CI runs `npm test`.
# The files run bundled (scripts/bundle-tests.ts) with plain node, which spares each file's
# process compiling src/ through tsx; failures are reported at the lines of the TypeScript
# sources through the bundles' source maps. The bundles are made afresh for every run, in a
# folder of the run's own, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
files=()
for file in test/domain/*.test.ts test/config/*.test.ts test/api/*.test.ts test/admin/*.test.ts; do
  # The linters run as processes of their own, for minutes: npm test runs them.
  [ "$file" = test/api/openapi-lint.test.ts ] || files+=("$file")
done
bundles_dir=test-output/fast-bundles-$$
trap 'rm -rf "$bundles_dir"' EXIT
bundle_list=$(node --import tsx scripts/bundle-tests.ts "$bundles_dir" "${files[@]}")
mapfile -t bundles <<< "$bundle_list"
# In groups, each group's files one after another in one process (scripts/test-groups.mjs), as
# npm test runs them: a process costs seconds of CPU before its first test is done.
mapfile -t groups < <(node scripts/test-groups.mjs "$bundles_dir" "${TOURDESK_TEST_GROUPS:-12}" "${bundles[@]}")
node --enable-source-maps --test --test-concurrency="${TOURDESK_TEST_CONCURRENCY:-4}" \
  --test-reporter=dot --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-timings-reporter.mjs --test-reporter-destination=stdout \
  "${groups[@]}"
