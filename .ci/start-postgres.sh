#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster (with pgvector, see install-pgvector.sh) on a
# free loopback port and prints its admin URL on stdout. The cluster lives in $1
# (default: a new temp dir) and runs as the postgres user, because initdb refuses root.
set -euo pipefail
BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
dir=${1:-$(mktemp -d /tmp/engram-pg.XXXXXX)}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
run_as() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}
mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
if [ ! -f "$dir/data/PG_VERSION" ]; then
  run_as "$BIN/initdb -D '$dir/data' -U postgres --auth=trust -E UTF8 >/dev/null"
fi
run_as "$BIN/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c max_connections=200 -c fsync=off\" start >/dev/null"
echo "postgres://postgres@127.0.0.1:$port/postgres"
