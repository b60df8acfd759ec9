#!/usr/bin/env bash
# scripts/test.sh — the one command that runs APIKit's whole test suite.
#
#   bash scripts/test.sh                      # everything
#   bash scripts/test.sh --filter Integration # extra arguments go to `swift test`
#
# Installs the pinned httpbin (scripts/httpbin-requirements.txt) into .venv
# when needed, starts it on a free 127.0.0.1 port, runs `swift test` with
# APIKIT_HTTPBIN_URL and APIKIT_REQUIRE_HTTPBIN=1 exported (so integration
# tests fail instead of skipping when the server is missing), stops the server
# (also on failure or Ctrl-C) and exits with swift test's exit code.
#
# APIKIT_TEST_COMMAND replaces `swift test` (a shell snippet; the script's
# arguments are appended), e.g. APIKIT_TEST_COMMAND='swift test --parallel'.
#
# Run without arguments (as CI does), it then runs the libFuzzer targets
# (scripts/fuzz.sh) for APIKIT_FUZZ_SECONDS each (default 20; 0 skips them).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/httpbin.sh
source "$ROOT/scripts/httpbin.sh"

httpbin_install
httpbin_start
export APIKIT_HTTPBIN_URL
export APIKIT_REQUIRE_HTTPBIN=1
echo "test.sh: httpbin running at $APIKIT_HTTPBIN_URL (log: .build-httpbin/)" >&2

# The misbehaving server of the fault-injection tests (Python standard library only). It
# exits by itself when this script is gone, and is stopped on every exit path below.
FAULT_PORT_FILE="$ROOT/.build-httpbin/faultserver.port"
rm -f "$FAULT_PORT_FILE"
"${APIKIT_PYTHON:-python3}" "$ROOT/scripts/faultserver.py" --port-file "$FAULT_PORT_FILE" --parent $$ \
    > "$ROOT/.build-httpbin/faultserver.log" 2>&1 &
FAULT_PID=$!
stop_faultserver() { kill "$FAULT_PID" 2>/dev/null || true; }
# After httpbin_start, so this EXIT trap replaces its own; it stops both.
trap 'stop_faultserver; httpbin_stop || true' EXIT
for _ in $(seq 1 100); do
    [[ -s "$FAULT_PORT_FILE" ]] && break
    sleep 0.1
done
[[ -s "$FAULT_PORT_FILE" ]] || { echo "test.sh: the fault server did not start" >&2; cat "$ROOT/.build-httpbin/faultserver.log" >&2; exit 1; }
export APIKIT_FAULT_URL="http://127.0.0.1:$(cat "$FAULT_PORT_FILE")"
echo "test.sh: fault server running at $APIKIT_FAULT_URL" >&2

rc=0
eval "${APIKIT_TEST_COMMAND:-swift test} \"\$@\"" || rc=$?

httpbin_stop
stop_faultserver

if [[ "$rc" -eq 0 && $# -eq 0 && "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then
    bash "$ROOT/scripts/fuzz.sh" "${APIKIT_FUZZ_SECONDS:-20}" || rc=$?
fi
exit "$rc"
