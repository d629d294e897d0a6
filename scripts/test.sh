#!/usr/bin/env bash
# The README's test command (`npm test`): every test of every package, from source, no build.
# Ends with the line "vitest: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-install.sh || exit 1
report=.vitest-report.json
rm -f "$report"
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
node scripts/test-summary.mjs "$report"
