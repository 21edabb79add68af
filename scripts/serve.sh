#!/usr/bin/env bash
# Set up (only what changed), build the database from data/ (only when data/ changed), and serve
# the library; prints "serving on http://HOST:PORT/incidents" once it answers.
# Settings: HOST (127.0.0.1), PORT (8000), DB (incidents.db), PYTHON (python3, for the venv).
set -euo pipefail
cd "$(dirname "$0")/.."
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
DB=${DB:-incidents.db}
scripts/setup.sh
# Rebuild when any data file, migration or importer module is newer than the database.
if [ ! -f "$DB" ] || [ -n "$(find data migrations app/importer.py app/schema.py -newer "$DB" -print -quit)" ]; then
  .venv/bin/incident-library build --data data --db "$DB"
else
  echo "serve: $DB is up to date with data/"
fi
shown=$HOST
[ "$HOST" = "0.0.0.0" ] && shown=127.0.0.1
url="http://$shown:$PORT"
answers() { .venv/bin/python -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' "$1" 2>/dev/null; }
if answers "$url/static/app.css"; then
  echo "serve: something already answers on $url; stop it or choose another PORT" >&2
  exit 1
fi
.venv/bin/incident-library serve --db "$DB" --host "$HOST" --port "$PORT" "$@" &
server=$!
# Ctrl-C (or a TERM) stops the server and waits until it has let go of the port.
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; exit 130' INT TERM
for _ in $(seq 1 300); do
  if ! kill -0 "$server" 2>/dev/null; then
    wait "$server"  # it stopped (port taken, no database): its own message says why
    exit $?
  fi
  if answers "$url/static/app.css"; then
    echo "serving on $url/incidents (Ctrl-C stops)"
    break
  fi
  sleep 0.2
done
wait "$server"
