#!/usr/bin/env bash
# The fast tier for the development loop: domain, config, API and operator API tests on SQLite
# only (no browser, no PostgreSQL, no processes, no bench or drills). CI runs `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
node --import tsx --test --test-reporter=dot test/domain/*.test.ts test/config/*.test.ts test/api/*.test.ts test/admin/*.test.ts
