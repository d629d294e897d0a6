#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster (initdb + pg_ctl in a temp folder, on a free port) and
# prints shell assignments of DATABASE_URL and MERCHANTKIT_PG_DIR for `eval`. Postgres refuses to run as root, so as root the cluster is
# owned by and run as the "postgres" user. Stop it with scripts/stop-postgres.sh "$MERCHANTKIT_PG_DIR".
# When no initdb is installed, falls back to a server already listening on 127.0.0.1:5432.
set -euo pipefail
bin=""
for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/initdb" ] && bin="$dir"; done
[ -z "$bin" ] && command -v initdb >/dev/null 2>&1 && bin="$(dirname "$(command -v initdb)")"
if [ -z "$bin" ]; then
  if command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres MERCHANTKIT_PG_DIR="
    exit 0
  fi
  echo "no initdb and no server on 127.0.0.1:5432: install PostgreSQL or set DATABASE_URL" >&2
  exit 1
fi
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
data=$(mktemp -d /tmp/merchantkit-pg.XXXXXX)
[ "$(id -u)" = 0 ] && chown postgres "$data"
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_pg "$bin/initdb" -D "$data/db" -U postgres --auth=trust --no-sync -E UTF8 >/dev/null
as_pg "$bin/pg_ctl" -D "$data/db" -l "$data/log" -w -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres MERCHANTKIT_PG_DIR=$data"
