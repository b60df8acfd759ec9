#!/usr/bin/env bash
# scripts/run-example.sh — run the APIKitExample executable against a local
# httpbin.
#
#   bash scripts/run-example.sh [args for APIKitExample...]
#
# Installs the pinned httpbin into .venv when needed, starts it on a free
# 127.0.0.1 port, runs `swift run APIKitExample` with APIKIT_HTTPBIN_URL
# exported, stops the server (also on failure or Ctrl-C) and exits with the
# example's exit code.
#
# APIKIT_EXAMPLE_COMMAND replaces `swift run APIKitExample` (a shell snippet;
# the script's arguments are appended).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/httpbin.sh
source "$ROOT/scripts/httpbin.sh"

httpbin_install
httpbin_start
export APIKIT_HTTPBIN_URL
echo "run-example.sh: httpbin running at $APIKIT_HTTPBIN_URL (log: .build-httpbin/)" >&2

rc=0
eval "${APIKIT_EXAMPLE_COMMAND:-swift run APIKitExample} \"\$@\"" || rc=$?

httpbin_stop
exit "$rc"
