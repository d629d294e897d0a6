#!/usr/bin/env bash
# The README's first command. Runs `reconciler demo` once apps/reconciler exists.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-install.sh
if [ ! -f apps/reconciler/package.json ]; then
  echo "reconciler demo is not built yet (apps/reconciler lands with issues 8 and 9)." >&2
  exit 2
fi
exec pnpm --filter @merchantkit/reconciler exec reconciler demo "$@"
