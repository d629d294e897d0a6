#!/usr/bin/env bash
# Stops and deletes a cluster made by start-postgres.sh; the argument is its MERCHANTKIT_PG_DIR.
set -uo pipefail
dir="${1:-}"
[ -n "$dir" ] && [ -d "$dir/db" ] || exit 0
bin=""
for d in /usr/lib/postgresql/*/bin; do [ -x "$d/pg_ctl" ] && bin="$d"; done
[ -z "$bin" ] && bin="$(dirname "$(command -v pg_ctl)")"
if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$bin/pg_ctl" -D "$dir/db" -m immediate stop >/dev/null 2>&1; else "$bin/pg_ctl" -D "$dir/db" -m immediate stop >/dev/null 2>&1; fi
rm -rf "$dir"
