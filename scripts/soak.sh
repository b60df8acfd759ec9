#!/usr/bin/env bash
# scripts/soak.sh — the soak run (Tests/Soak): many requests against a local httpbin.
#
#   bash scripts/soak.sh              # 20,000 requests, 50 in flight
#   bash scripts/soak.sh 5000 20      # count, in flight
#
# Starts httpbin like scripts/test.sh (pinned, in .venv, on a free 127.0.0.1 port), builds
# the soak program in release mode, starts scripts/faultserver.py for its fault pass, runs it
# and stops both on every exit path. Not part of
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
FAULT_PORT_FILE="$ROOT/.build-httpbin/faultserver-soak.port"
rm -f "$FAULT_PORT_FILE"
"${APIKIT_PYTHON:-python3}" "$ROOT/scripts/faultserver.py" --port-file "$FAULT_PORT_FILE" --parent $$ \
    > "$ROOT/.build-httpbin/faultserver-soak.log" 2>&1 &
FAULT_PID=$!
trap 'kill "$FAULT_PID" 2>/dev/null || true; httpbin_stop || true' EXIT
for _ in $(seq 1 100); do [[ -s "$FAULT_PORT_FILE" ]] && break; sleep 0.1; done
export APIKIT_FAULT_URL="http://127.0.0.1:$(cat "$FAULT_PORT_FILE")"
rc=0
"$(swift build -c release --show-bin-path)/APIKitSoak" "$@" || rc=$?
httpbin_stop
exit "$rc"
