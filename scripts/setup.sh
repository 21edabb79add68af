#!/usr/bin/env bash
# Install what the library needs into .venv (Python) and static/vendor (from npm, pinned by
# package-lock.json). Usage: scripts/setup.sh [--test]   (--test adds the test tools)
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
extra=""
[ "${1:-}" = "--test" ] && extra="[test]"
.venv/bin/python -m pip install -q --upgrade pip 2> >(grep -v 'is ignored: it is neither' >&2)
.venv/bin/python -m pip install -q -e ".${extra}" 2> >(grep -v 'is ignored: it is neither' >&2)
npm ci --no-audit --no-fund --loglevel=error
mkdir -p static/vendor
cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css static/vendor/
cp node_modules/axe-core/axe.min.js static/vendor/  # accessibility checks in the browser tests
