#!/usr/bin/env bash
# Set up (test tools, Debian's Chromium for the browser tests) and run every check:
# ruff lint, ruff format check, mypy, and the whole pytest suite (browser tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto.*cjk"; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "The browser tests need Debian's chromium: sudo apt-get install chromium fonts-noto-cjk" >&2
    exit 1
  fi
fi
scripts/setup.sh --test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
