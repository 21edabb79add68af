#!/usr/bin/env bash
# Set up, build the database from data/, and serve the library at http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/incident-library build --data data --db incidents.db
exec .venv/bin/incident-library serve --db incidents.db --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}"
