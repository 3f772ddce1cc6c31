#!/usr/bin/env bash
# The whole test suite. Node 20's `node --test DIR` finds no tests, so the files are listed
# by glob here and handed over explicitly.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
files=(test/**/*.test.ts)
if [ ${#files[@]} -eq 0 ]; then
  echo "no test files found under test/" >&2
  exit 1
fi
exec node --import tsx --test --test-reporter=spec "${files[@]}"
