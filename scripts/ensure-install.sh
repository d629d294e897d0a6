#!/usr/bin/env bash
# Makes a fresh clone runnable with nothing but Node 20 and npm: installs the pinned pnpm when it
# is missing, then the workspace's dependencies when they are missing or older than the lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
PNPM_VERSION=10.34.9
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "installing pnpm@$PNPM_VERSION" >&2
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >&2
fi
if [ ! -f node_modules/.modules.yaml ] || [ pnpm-lock.yaml -nt node_modules/.modules.yaml ]; then
  pnpm install --frozen-lockfile >&2
fi
