#!/usr/bin/env bash
# scripts/test.sh — the one command that runs APIKit's whole test suite; CI (.ci/run) runs exactly it.
#
#   bash scripts/test.sh                        # every step below, in order
#   bash scripts/test.sh --filter QueryTests    # arguments go to `swift test`; steps 5, 6 and 8 are skipped
#
# A failing step ends the run (the servers are stopped on every exit path); the exit code is the
# failing step's. Each step, and the switch that skips it:
#   1. lint: scripts/format.sh --lint (swift-format; bash -n and shellcheck on scripts/), and
#      .github/workflows/ci.yml parses and has its linux, macos and ios jobs      APIKIT_SKIP_LINT=1
#   2. API check: scripts/api-check.sh against api-baseline/                        APIKIT_SKIP_API_CHECK=1
#   3. docs: scripts/docs.sh (doc comments, DocC with warnings as errors, examples) APIKIT_SKIP_DOCS=1
#   4. `swift test` against the real servers of scripts/servers/serve.sh, with APIKIT_REQUIRE_HTTPBIN=1
#      (a missing server fails the integration tests instead of skipping them)
#   5. Transports/AsyncHTTPClient's own package: its tests, the TLS tests and the root integration
#      suite over AsyncHTTPClientTransport                                        APIKIT_SKIP_AHC=1
#      APIKIT_ONLY_AHC=1 runs this step alone (arguments go to its `swift test`); then the package
#      again under the thread sanitizer, one test at a time (~5.5 min with its build)  APIKIT_SKIP_AHC_TSAN=1
#   6. the example programs: scripts/run-examples.sh                              APIKIT_SKIP_EXAMPLES=1
#   7. step 4 again under the thread sanitizer, in .build-tsan so the two builds never invalidate
#      each other, one test at a time (TSan slows the code several times; the suite's "promptly"
#      bounds do not hold for hundreds of instrumented tests in parallel on 2 cores)  APIKIT_SKIP_TSAN=1
#   8. the libFuzzer targets: scripts/fuzz.sh, APIKIT_FUZZ_SECONDS each [20]      APIKIT_FUZZ_SECONDS=0
#
# The servers, their URLs exported: httpbin under gunicorn (APIKIT_HTTPBIN_URL), the fault server
# (APIKIT_FAULT_URL), the Content-Length-only server (APIKIT_LENGTH_URL), moto's S3 (APIKIT_S3_URL,
# presigned URLs through APIKIT_PRESIGN_COMMAND), FastAPI on uvicorn (APIKIT_FASTAPI_URL) and, for
# step 5, nginx with HTTP/2 over TLS in front of httpbin, its certificates from a CA made for the
# run (APIKIT_TLS_URL, APIKIT_TLS_WRONG_NAME_URL, APIKIT_TLS_CA). Their logs: .build-servers/.
# shellcheck disable=SC2317 # the step functions run through run(), which ShellCheck does not follow
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh

if [[ "${APIKIT_ONLY_AHC:-0}" == 1 ]]; then
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_LINT=1 APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_TSAN=1
    APIKIT_FUZZ_SECONDS=0
fi
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1}"
full=$(($# == 0)) # no arguments: the whole suite, as CI runs it
rc=0

skip() { [[ "${!1:-0}" == 1 ]]; }

# run NAME COMMAND...: unless a step failed already, runs COMMAND and says how it went.
run() {
    local name="$1" started=$SECONDS
    shift
    if ((rc == 0)); then
        "$@" || rc=$?
        echo "test.sh: $name: exit $rc after $((SECONDS - started)) s" >&2
    fi
}

lint() {
    bash scripts/format.sh --lint &&
        "$VENV/bin/python" - .github/workflows/ci.yml <<'PY'
import sys, yaml
missing = {"linux", "macos", "ios"} - set(yaml.safe_load(open(sys.argv[1]))["jobs"])
sys.exit(f"test.sh: {sys.argv[1]} lacks the jobs {sorted(missing)}" if missing else 0)
PY
}

start_servers() {
    serve httpbin fault length moto fastapi
    APIKIT_PRESIGN_COMMAND="$(printf '%q %q' "$VENV/bin/python" "$ROOT/scripts/servers/s3_presign.py")"
    export APIKIT_PRESIGN_COMMAND APIKIT_REQUIRE_HTTPBIN=1
    if ! skip APIKIT_SKIP_AHC; then
        local tls="$SERVE_STATE/tls" nginx tls_port wrong_port
        "$VENV/bin/python" scripts/servers/make_certs.py "$tls"
        nginx="$(serve_nginx "the TLS tests need it")"
        tls_port="$(serve_free_port)" wrong_port="$(serve_free_port)"
        serve_start tls-nginx APIKIT_TLS_HEALTH_URL "" \
            bash scripts/servers/nginx.sh "$nginx" "$tls" tls '{port}' "$tls_port" "$wrong_port" "$APIKIT_HTTPBIN_URL"
        export APIKIT_TLS_URL="https://127.0.0.1:$tls_port" APIKIT_TLS_CA="$tls/ca.pem"
        export APIKIT_TLS_WRONG_NAME_URL="https://127.0.0.1:$wrong_port"
    fi
    env | grep -E '^APIKIT_[A-Z0-9_]+_URL=' | sed 's/^/test.sh: /' >&2
}

ahc() { swift test --package-path Transports/AsyncHTTPClient "$@"; }

serve_install
skip APIKIT_SKIP_LINT || run lint lint
skip APIKIT_SKIP_API_CHECK || run "API check" bash scripts/api-check.sh
skip APIKIT_SKIP_DOCS || run docs bash scripts/docs.sh
if ((rc != 0)); then exit "$rc"; fi

start_servers
skip APIKIT_ONLY_AHC || run "swift test" swift test "$@"
if ! skip APIKIT_SKIP_AHC && ((full)) || skip APIKIT_ONLY_AHC; then
    run "AsyncHTTPClient package" ahc "$@"
    skip APIKIT_SKIP_AHC_TSAN || run "AsyncHTTPClient package under TSan" \
        ahc --sanitize=thread --scratch-path Transports/AsyncHTTPClient/.build-tsan --no-parallel "$@"
fi
((full)) && ! skip APIKIT_SKIP_EXAMPLES && run examples bash scripts/run-examples.sh
skip APIKIT_SKIP_TSAN || run "thread sanitizer" swift test --sanitize=thread --scratch-path .build-tsan --no-parallel "$@"
serve_stop
((full)) && [[ "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]] && run fuzzing bash scripts/fuzz.sh "${APIKIT_FUZZ_SECONDS:-20}"
exit "$rc"
