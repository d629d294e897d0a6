#!/usr/bin/env bash
# The README's first command: `reconciler demo` — the sandbox in-process with generated data,
# the merchant's ledger written from its ground truth with injected discrepancies, a sync into
# an embedded database (PGlite, no server), matching, and the report.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-install.sh
# From source whether or not the packages are built: the demo package is TypeScript only (it is
# not published), and the worker's built CLI would not load it.
exec node --conditions=@merchantkit/source --import tsx apps/reconciler/src/cli/main.ts demo "$@"
