#!/usr/bin/env bash
# scripts/soak.sh — the soak run (Tests/Soak): many requests against a local httpbin.
#
#   bash scripts/soak.sh              # 20,000 requests, 50 in flight
#   bash scripts/soak.sh 5000 20      # count, in flight
#
# Starts httpbin like scripts/test.sh (pinned, in .venv, on a free 127.0.0.1 port), builds
# the soak program in release mode, runs it and stops httpbin on every exit path. Not part of
# scripts/test.sh: it takes about a minute here. Exits with the soak program's status.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/httpbin.sh
source "$ROOT/scripts/httpbin.sh"

swift build -c release --product APIKitSoak >&2
httpbin_install
httpbin_start
export APIKIT_HTTPBIN_URL
rc=0
"$(swift build -c release --show-bin-path)/APIKitSoak" "$@" || rc=$?
httpbin_stop
exit "$rc"
