#!/usr/bin/env bash
# The scaffold's promise kept whole: in a fresh clone of this repository's committed HEAD, the README's
# two commands for a new module (`npm run new-module -- notes-demo`, then `npm run db:generate`), then
# the whole suite (`npm test`), run with the environment this script is given (DATABASE_URL for the
# PostgreSQL pass). Exits with the suite's status; prints what `npm test` prints.
#
# .ci/run runs its PostgreSQL pass through this script, so every CI run proves that a new module leaves
# the whole suite green. By hand: scripts/new-module/whole-suite.sh (uncommitted changes are not in the clone).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/benchline-whole-suite-XXXXXX")
trap 'rm -rf "$work"' EXIT
clone="$work/repo"
git clone -q "$root" "$clone"
# The dependencies are the ones `npm ci` installed here: the clone adds no package.
ln -s "$root/node_modules" "$clone/node_modules"
cd "$clone"
echo "whole suite after scaffolding, in $clone (HEAD $(git rev-parse --short HEAD)): new-module notes-demo, db:generate, npm test"
npm run --silent new-module -- notes-demo
npm run --silent db:generate -- --name notes_demo
git status --short
# The run's log lines go where .ci/run scans them for secrets: this tree's .tmp/test-log.jsonl.
export BENCHLINE_TEST_LOG="${BENCHLINE_TEST_LOG:-$root/.tmp/test-log.jsonl}"
# The suite below runs the scaffolded module's tests itself: generate.test.ts need not run them again in its clone.
export BENCHLINE_SUITE_HAS_SCAFFOLD=1
npm test
