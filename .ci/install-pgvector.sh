#!/usr/bin/env bash
# Builds and installs pgvector for the machine's PostgreSQL 15 from Debian's source
# package (bookworm ships no pgvector binary package). Skips when already installed.
set -euo pipefail
PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
sharedir=$("$PG_CONFIG" --sharedir)
if [ -f "$sharedir/extension/vector.control" ]; then
  echo "pgvector already installed in $sharedir" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
src_list=/etc/apt/sources.list.d/engram-pgvector-src.sources
# Reuse the archive URI and keyring of the machine's own Debian source entry.
main_sources=$(grep -l '^Suites:.*bookworm' /etc/apt/sources.list.d/*.sources | head -n1)
uri=$(awk '/^URIs:/{print $2; exit}' "$main_sources")
keyring=$(awk '/^Signed-By:/{print $2; exit}' "$main_sources")
cleanup() { rm -f "$src_list"; apt-get update -qq >/dev/null 2>&1 || true; }
trap cleanup EXIT
printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: %s\n' "$uri" "$keyring" > "$src_list"
apt-get update -qq
work=$(mktemp -d)
(cd "$work" && apt-get source -qq pgvector)
rm -f "$src_list"
apt-get update -qq
apt-get install -y -qq postgresql-server-dev-15 >/dev/null
dir=$(find "$work" -maxdepth 1 -type d -name 'pgvector-*' | head -n1)
make -s -C "$dir" PG_CONFIG="$PG_CONFIG" >/dev/null
make -s -C "$dir" PG_CONFIG="$PG_CONFIG" install >/dev/null
rm -rf "$work"
echo "pgvector installed into $sharedir" >&2
