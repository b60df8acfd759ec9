#!/usr/bin/env bash
# scripts/test.sh — the one command that runs APIKit's whole test suite.
#
#   bash scripts/test.sh                      # everything
#   bash scripts/test.sh --filter Integration # extra arguments go to `swift test`
#
# Installs the pinned test servers into the git-ignored .venv when needed (nothing global:
# scripts/httpbin-requirements.txt and scripts/servers/requirements.txt, one pip run, redone
# when either file changes), starts each on a free 127.0.0.1 port and exports its URL:
#
#   httpbin (gunicorn)                                            APIKIT_HTTPBIN_URL
#   the fault-injection server (scripts/faultserver.py)           APIKIT_FAULT_URL
#   moto's S3 server (moto_server)                                APIKIT_S3_URL
#     and how to presign its URLs (scripts/servers/s3_presign.py)  APIKIT_PRESIGN_COMMAND
#   FastAPI on uvicorn (scripts/servers/fastapi_app.py)           APIKIT_FASTAPI_URL
#   a server that reads bodies by Content-Length only
#     (scripts/servers/length_server.py)                          APIKIT_LENGTH_URL
#   unless APIKIT_SKIP_AHC=1, nginx with HTTP/2 over TLS in front of httpbin, with
#     certificates from a test CA made for the run (scripts/servers/tls_nginx.sh,
#     make_certs.py; nginx-light is installed with apt-get when missing and this is root)
#                                                                 APIKIT_TLS_URL,
#                                 APIKIT_TLS_WRONG_NAME_URL, APIKIT_TLS_CA
#
# then runs `swift test` with APIKIT_REQUIRE_HTTPBIN=1 exported too (so integration tests fail
# instead of skipping when a server is missing), stops the servers (also on failure or Ctrl-C;
# scripts/servers/serve.sh) and exits with swift test's exit code. Server logs: .build-httpbin/.
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
# Run without arguments (as CI does), when `swift test` passes it also builds and tests the
# AsyncHTTPClient transport, a package of its own (Transports/AsyncHTTPClient, which depends on
# async-http-client; the root package has no dependencies), against the same servers:
# `swift test --package-path Transports/AsyncHTTPClient`. Its test target holds the transport's
# own tests and the root integration suite (Tests/APIKitIntegrationTests, through a symlink)
# compiled to send over AsyncHTTPClientTransport, so the suite runs over both transports. That
# adds the build of async-http-client and SwiftNIO (2.5-7 min from a clean clone on the 2-core
# CI machine beside other builds, seconds when cached) and 20-30 s of tests.
# APIKIT_SKIP_AHC=1 skips it; APIKIT_ONLY_AHC=1 runs only it (no lint, API check, docs, root
# tests, examples, TSan or fuzzing; arguments go to its `swift test`, e.g. `--filter Streaming`).
# APIKIT_AHC_TSAN=1 then runs that package again under the thread sanitizer (its own scratch
# directory, Transports/AsyncHTTPClient/.build-tsan, one test at a time): off by default, as it
# adds ~7.5 min on the 2-core machine (a 5 min build and 130 s of tests; clean when measured).
#
# Run without arguments (as CI does), it then runs the libFuzzer targets
# (scripts/fuzz.sh) for APIKIT_FUZZ_SECONDS each (default 20; 0 skips them).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/httpbin.sh
source "$ROOT/scripts/httpbin.sh"
# shellcheck source=scripts/servers/serve.sh
source "$ROOT/scripts/servers/serve.sh"
# shellcheck source=scripts/servers/nginx.sh
source "$ROOT/scripts/servers/nginx.sh"

ONLY_AHC="${APIKIT_ONLY_AHC:-0}"
if [[ "$ONLY_AHC" == 1 ]]; then
    APIKIT_SKIP_LINT=1 APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_TSAN=1
    APIKIT_FUZZ_SECONDS=0
fi

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
if [[ "${APIKIT_SKIP_LINT:-0}" != 1 ]]; then
    # The GitHub Actions workflow is not run by this CI: check at least that it parses and has its jobs.
    "$ROOT/.venv/bin/python" - "$ROOT/.github/workflows/ci.yml" <<'PY'
import sys, yaml
jobs = yaml.safe_load(open(sys.argv[1]))["jobs"]
missing = {"linux", "macos", "ios"} - set(jobs)
sys.exit(f"test.sh: {sys.argv[1]} lacks the jobs {sorted(missing)}" if missing else 0)
PY
fi
httpbin_start
export APIKIT_HTTPBIN_URL
export APIKIT_REQUIRE_HTTPBIN=1
# After httpbin_start, so these traps replace its own; they stop every server.
serve_trap 'httpbin_stop || true'
PY="${APIKIT_PYTHON:-python3}"
VENV="$ROOT/.venv/bin"
serve_start faultserver APIKIT_FAULT_URL ok "$PY" scripts/faultserver.py --port-file '{port_file}' --parent $$
serve_start length-server APIKIT_LENGTH_URL "" "$PY" scripts/servers/length_server.py --port-file '{port_file}' --parent $$
serve_start moto APIKIT_S3_URL "" "$VENV/moto_server" -H 127.0.0.1 -p '{port}'
serve_start fastapi APIKIT_FASTAPI_URL status/200 \
    "$VENV/uvicorn" --app-dir scripts/servers fastapi_app:app --host 127.0.0.1 --port '{port}'
APIKIT_PRESIGN_COMMAND="$(printf '%q %q' "$VENV/python" "$ROOT/scripts/servers/s3_presign.py")"
export APIKIT_PRESIGN_COMMAND
if [[ "${APIKIT_SKIP_AHC:-0}" != 1 ]]; then
    # HTTP/2 over TLS for the AsyncHTTPClient transport: nginx in front of httpbin, with
    # certificates from a test CA made for this run (trusted by nothing but the tests).
    TLS_STATE="$SERVE_STATE_DIR/tls"
    "$VENV/python" scripts/servers/make_certs.py "$TLS_STATE"
    NGINX="$(nginx_find || { nginx_install "$TLS_STATE/apt.log" "the TLS tests need it" >&2 && nginx_find; })"
    TLS_PORT="$(_serve_free_port)"
    TLS_WRONG_NAME_PORT="$(_serve_free_port)"
    serve_start tls-nginx APIKIT_TLS_HEALTH_URL "" bash scripts/servers/tls_nginx.sh \
        "$NGINX" "$TLS_STATE" '{port}' "$TLS_PORT" "$TLS_WRONG_NAME_PORT" "$APIKIT_HTTPBIN_URL"
    export APIKIT_TLS_URL="https://127.0.0.1:$TLS_PORT"
    export APIKIT_TLS_WRONG_NAME_URL="https://127.0.0.1:$TLS_WRONG_NAME_PORT"
    export APIKIT_TLS_CA="$TLS_STATE/ca.pem"
fi
for url in APIKIT_HTTPBIN_URL APIKIT_FAULT_URL APIKIT_LENGTH_URL APIKIT_S3_URL APIKIT_FASTAPI_URL APIKIT_TLS_URL; do
    echo "test.sh: $url=${!url:-}" >&2
done

rc=0
if [[ "$ONLY_AHC" != 1 ]]; then
    started=$SECONDS
    eval "${APIKIT_TEST_COMMAND:-swift test} \"\$@\"" || rc=$?
    echo "test.sh: swift test finished in $((SECONDS - started)) s (exit $rc)" >&2
fi

if [[ "$rc" == 0 && "${APIKIT_SKIP_AHC:-0}" != 1 && ($# -eq 0 || "$ONLY_AHC" == 1) ]]; then
    started=$SECONDS
    ahc_args=()
    if [[ "$ONLY_AHC" == 1 ]]; then ahc_args=("$@"); fi
    swift test --package-path "$ROOT/Transports/AsyncHTTPClient" "${ahc_args[@]}" || rc=$?
    echo "test.sh: AsyncHTTPClient transport (build + tests) finished in $((SECONDS - started)) s (exit $rc)" >&2
    if [[ "$rc" == 0 && "${APIKIT_AHC_TSAN:-0}" == 1 ]]; then
        started=$SECONDS
        TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}" \
            swift test --package-path "$ROOT/Transports/AsyncHTTPClient" --sanitize=thread \
            --scratch-path "$ROOT/Transports/AsyncHTTPClient/.build-tsan" --no-parallel "${ahc_args[@]}" || rc=$?
        echo "test.sh: AsyncHTTPClient transport under the thread sanitizer finished in $((SECONDS - started)) s (exit $rc)" >&2
    fi
fi

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

serve_stop_all
httpbin_stop

if [[ "$rc" -eq 0 && $# -eq 0 && "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then
    bash "$ROOT/scripts/fuzz.sh" "${APIKIT_FUZZ_SECONDS:-20}" || rc=$?
fi
exit "$rc"
