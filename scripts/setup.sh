#!/usr/bin/env bash
# Install what the library needs into .venv (Python) and static/vendor (from npm, pinned by
# package-lock.json). Usage: scripts/setup.sh [--test]   (--test adds the test tools)
# Each install runs only when its input changed: a stamp file remembers the hash of
# pyproject.toml (in .venv/) and of package-lock.json (in node_modules/) it was made from.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
extra=""
[ "${1:-}" = "--test" ] && extra="[test]"

hash_of() { "$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }

if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# The test install includes the plain one, so a test stamp also satisfies a plain setup.
py_want="$(hash_of pyproject.toml) ${extra:-[]}"
py_have="$(cat .venv/.il-installed 2>/dev/null || true)"
if [ "$py_have" = "$py_want" ] || { [ -z "$extra" ] && [ "$py_have" = "${py_want% *} [test]" ]; }; then
  echo "setup: Python packages up to date (pyproject.toml unchanged)"
else
  .venv/bin/python -m pip install -q --upgrade pip 2> >(grep -v 'is ignored: it is neither' >&2)
  .venv/bin/python -m pip install -q -e ".${extra}" 2> >(grep -v 'is ignored: it is neither' >&2)
  echo "$py_want" > .venv/.il-installed
fi

# Front-end packages; devDependencies (axe-core for the accessibility tests) only with --test.
npm_want="$(hash_of package-lock.json) ${extra:-[]}"
npm_have="$(cat node_modules/.il-installed 2>/dev/null || true)"
if [ "$npm_have" = "$npm_want" ] || { [ -z "$extra" ] && [ "$npm_have" = "${npm_want% *} [test]" ]; }; then
  echo "setup: npm packages up to date (package-lock.json unchanged)"
else
  if [ -n "$extra" ]; then
    npm ci --no-audit --no-fund --loglevel=error
  else
    npm ci --omit=dev --no-audit --no-fund --loglevel=error
  fi
  echo "$npm_want" > node_modules/.il-installed
fi
mkdir -p static/vendor
cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
if [ -n "$extra" ]; then
  mkdir -p tests/browser/vendor
  cp node_modules/axe-core/axe.min.js tests/browser/vendor/axe.min.js
fi
cp node_modules/axe-core/axe.min.js static/vendor/ 2>/dev/null || true  # the graph's browser test loads it same-origin
