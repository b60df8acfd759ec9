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
# When that pass succeeds, the suite runs a second time under the thread
# sanitizer, built in its own scratch directory (.build-tsan) so that the two
# builds never invalidate each other. TSan makes the code several times slower,
# and the suite has "promptly" bounds (a cancellation within 6 s of an 8 s
# server delay) that a 2-core machine cannot keep with 376 instrumented tests in
# parallel, so this pass runs them one at a time (--no-parallel; ~46 s of tests
# after a 1.5-4.5 min build; all of .ci/run took 348 s from a fresh clone on the
# 2-core CI machine). A data race fails the run: TSan exits with 66.
# APIKIT_SKIP_TSAN=1 skips the pass; APIKIT_TSAN_COMMAND replaces its command.
#
# Before anything else, it lints the sources (scripts/format.sh --lint, swift-format
# --strict with .swift-format); APIKIT_SKIP_LINT=1 skips that. Then it checks the public API
# against the committed baseline in api-baseline/ (scripts/api-check.sh: a removed or changed
# public declaration fails the run); APIKIT_SKIP_API_CHECK=1 skips that.
#
# Run without arguments (as CI does), when `swift test` passes it runs every example program
# (scripts/run-examples.sh: Examples/, each checking what it shows against the same httpbin) before
# the sanitizer pass; a failing example fails the run. APIKIT_SKIP_EXAMPLES=1 skips them.
#
# Then it builds the documentation (scripts/docs.sh: a summary on every public
# declaration, `docc convert --warnings-as-errors` on the DocC catalogs, the articles'
# examples type-checked; ~15 s on top of the library build, which `swift test` reuses);
# APIKIT_SKIP_DOCS=1 skips that.
#
# Run without arguments (as CI does), it then runs the libFuzzer targets
# (scripts/fuzz.sh) for APIKIT_FUZZ_SECONDS each (default 20; 0 skips them).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/httpbin.sh
source "$ROOT/scripts/httpbin.sh"

if [[ "${APIKIT_SKIP_LINT:-0}" != 1 ]]; then
    bash "$ROOT/scripts/format.sh" --lint
fi
if [[ "${APIKIT_SKIP_API_CHECK:-0}" != 1 ]]; then
    bash "$ROOT/scripts/api-check.sh"
fi

if [[ "${APIKIT_SKIP_DOCS:-0}" != 1 ]]; then
    bash "$ROOT/scripts/docs.sh"
fi

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
started=$SECONDS
eval "${APIKIT_TEST_COMMAND:-swift test} \"\$@\"" || rc=$?
echo "test.sh: swift test finished in $((SECONDS - started)) s (exit $rc)" >&2

if [[ "$rc" == 0 && $# -eq 0 && "${APIKIT_SKIP_EXAMPLES:-0}" != 1 ]]; then
    started=$SECONDS
    bash "$ROOT/scripts/run-examples.sh" || rc=$?
    echo "test.sh: examples finished in $((SECONDS - started)) s (exit $rc)" >&2
fi

if [[ "$rc" == 0 && "${APIKIT_SKIP_TSAN:-0}" != 1 ]]; then
    started=$SECONDS
    export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}"
    eval "${APIKIT_TSAN_COMMAND:-swift test --sanitize=thread --scratch-path .build-tsan --no-parallel} \"\$@\"" || rc=$?
    echo "test.sh: thread-sanitizer pass finished in $((SECONDS - started)) s (exit $rc)" >&2
fi

httpbin_stop
stop_faultserver

if [[ "$rc" -eq 0 && $# -eq 0 && "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then
    bash "$ROOT/scripts/fuzz.sh" "${APIKIT_FUZZ_SECONDS:-20}" || rc=$?
fi
exit "$rc"
