#!/usr/bin/env bash
# Set up (test tools, Debian's Chromium and nginx for the tests) and run every check:
# ruff lint, ruff format check, mypy, and the whole pytest suite (browser tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian packages the tests drive: chromium (browser tests), nginx (the reverse-proxy and
# replica tests start their own on loopback, with a generated config). apt only when missing.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
fc-list 2>/dev/null | grep -qi "noto.*cjk" || need+=(fonts-noto-cjk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq
    # Debian's policy-rc.d convention: install nginx without starting the system's own server.
    hold=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
      hold=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    if [ -n "$hold" ]; then rm -f /usr/sbin/policy-rc.d; fi
  else
    echo "The tests need Debian's ${need[*]}: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
scripts/setup.sh --test
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
