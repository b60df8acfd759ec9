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

rc=0
eval "${APIKIT_TEST_COMMAND:-swift test} \"\$@\"" || rc=$?

httpbin_stop

if [[ "$rc" -eq 0 && $# -eq 0 && "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then
    bash "$ROOT/scripts/fuzz.sh" "${APIKIT_FUZZ_SECONDS:-20}" || rc=$?
fi
exit "$rc"
