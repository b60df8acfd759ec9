#!/usr/bin/env bash
# scripts/test.sh — APIKit's two test commands; CI (.ci/run) runs the full one.
#
#   bash scripts/test.sh --quick    # the edit-test loop: steps 1, 4 and 5 (lint, every test over both transports, examples)
#   bash scripts/test.sh            # everything, in order: the quick command plus steps 2, 3, 6 and 7
#   bash scripts/test.sh [--quick] --filter QueryTests
#                                   # arguments: lint (with API check and docs unless --quick), then only
#                                   # `swift test ARGUMENTS` in the root package, against the servers
#
# A failing step ends the run (the servers are stopped on every exit path); the exit code is the
# failing step's. Each step, and the switch that skips it:
#   1. lint: scripts/format.sh --lint (swift-format; bash -n and shellcheck on scripts/);
#      .github/workflows/ci.yml parses and has its linux, macos and ios jobs; and every test
#      target of the root package is one of Transports/AsyncHTTPClient's too         APIKIT_SKIP_LINT=1
#   2. API check: scripts/api-check.sh against api-baseline/                        APIKIT_SKIP_API_CHECK=1
#   3. docs: scripts/docs.sh (doc comments, DocC with warnings as errors, every doc example type-
#      checked with warnings as errors; run after step 4a, so that the transport's examples are too) APIKIT_SKIP_DOCS=1
#   4. the tests, with APIKIT_REQUIRE_HTTPBIN=1 (a missing server fails the integration tests
#      instead of skipping them): one build of Transports/AsyncHTTPClient's package, whose test
#      graph holds the root package's test targets (symlinked) beside its own, run twice:
#        a. APIKIT_TEST_TRANSPORT=asynchttpclient: the unit tests, the transport's own tests (TLS
#           included) and the root integration suite over AsyncHTTPClientTransport;
#        b. APIKIT_TEST_TRANSPORT=urlsession: the root integration suite over URLSessionTransport.
#      APIKIT_ONLY_AHC=1 runs this step alone (and step 6 unless skipped), arguments added to each
#      run. APIKIT_SKIP_AHC=1 runs the root package's `swift test` instead (unit tests and the
#      integration suite over URLSession; no AsyncHTTPClient, no TLS server; in step 6, the same
#      under the sanitizer in .build-tsan).
#   5. the example programs: scripts/run-examples.sh (built in the root package)  APIKIT_SKIP_EXAMPLES=1
#   6. step 4 again under the thread sanitizer: one more build of that package, in
#      Transports/AsyncHTTPClient/.build-tsan, the same two runs one test at a time (TSan slows the
#      code several times; the suite's "promptly" bounds do not hold for hundreds of instrumented
#      tests in parallel on 2 cores); a data race fails the run               APIKIT_SKIP_TSAN=1
#   7. the libFuzzer targets: scripts/fuzz.sh, APIKIT_FUZZ_SECONDS each [20]      APIKIT_FUZZ_SECONDS=0
#
# The servers, their URLs exported: httpbin under gunicorn (APIKIT_HTTPBIN_URL), the fault server
# (APIKIT_FAULT_URL), the Content-Length-only server (APIKIT_LENGTH_URL), moto's S3 (APIKIT_S3_URL,
# presigned URLs through APIKIT_PRESIGN_COMMAND), FastAPI on uvicorn (APIKIT_FASTAPI_URL) and,
# unless APIKIT_SKIP_AHC=1, nginx with HTTP/2 over TLS in front of httpbin, its certificates from
# a CA made for the run (APIKIT_TLS_URL, APIKIT_TLS_WRONG_NAME_URL, APIKIT_TLS_CA). Their logs and
# each test run's output: .build-servers/.
# shellcheck disable=SC2317 # the step functions run through run(), which ShellCheck does not follow
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
AHC=Transports/AsyncHTTPClient

if [[ "${1:-}" == --quick ]]; then
    shift
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_TSAN=1 APIKIT_FUZZ_SECONDS=0
fi
if [[ "${APIKIT_ONLY_AHC:-0}" == 1 ]]; then
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_LINT=1 APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_AHC=0
    APIKIT_FUZZ_SECONDS=0
elif (($#)); then
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_AHC=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_TSAN=1 APIKIT_FUZZ_SECONDS=0
fi
# The suppressions name races inside dependencies that TSan cannot see ordered; each says why.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1 suppressions=$ROOT/scripts/tsan-suppressions.txt}"
rc=0
started=$SECONDS

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

# The servers' installation runs beside the first build (pip mostly waits on the network and
# the disk); install_wait collects it.
install_pid=""
install_start() {
    serve_install &
    install_pid=$!
}
install_wait() {
    if [[ -n "$install_pid" ]]; then
        local pid="$install_pid"
        install_pid=""
        wait "$pid"
    fi
}

lint() { bash scripts/format.sh --lint && test_graph_check; }

# Needs the venv's yaml: runs once the servers' installation is done, before they start.
workflow_check() {
    "$VENV/bin/python" - .github/workflows/ci.yml <<'PY'
import sys, yaml
missing = {"linux", "macos", "ios"} - set(yaml.safe_load(open(sys.argv[1]))["jobs"])
sys.exit(f"test.sh: {sys.argv[1]} lacks the jobs {sorted(missing)}" if missing else 0)
PY
}

# Step 4 runs the root package's tests in the AsyncHTTPClient package: a test target added to the
# root's manifest and not there would never run. Compares the folders the two compile as tests.
test_graph_check() {
    local root ahc
    root="$(swift package dump-package)" && ahc="$(swift package --package-path "$AHC" dump-package)" || return 1
    "${APIKIT_PYTHON:-python3}" - "$ROOT" "$root" "$ROOT/$AHC" "$ahc" <<'PY'
import json, os, sys

def test_folders(base, manifest):
    folders = set()
    for target in json.loads(manifest)["targets"]:
        if target["type"] != "test":
            continue
        path = os.path.join(base, target.get("path") or os.path.join("Tests", target["name"]))
        for source in target.get("sources") or [""]:
            folders.add(os.path.realpath(os.path.join(path, source)))
    return folders

root, ahc = test_folders(sys.argv[1], sys.argv[2]), test_folders(sys.argv[3], sys.argv[4])
missing = sorted(os.path.relpath(folder, sys.argv[1]) for folder in root - ahc)
if missing:
    sys.exit(f"test.sh: Transports/AsyncHTTPClient/Package.swift does not compile the root's test folders {missing}: "
             "symlink each into its Tests/ and add a test target for it, as for the others")
PY
}

start_servers() {
    install_wait || return
    if ! skip APIKIT_SKIP_LINT; then
        run "lint: ci.yml" workflow_check
        if ((rc != 0)); then return "$rc"; fi
    fi
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

# The URLSession run's --skip: every test outside APIKitAsyncHTTPClientTests (the unit tests), and
# in it the types the package's own test files declare (its suites, which build their transports
# themselves or from TestTransport.shared): what is left is the root integration suite.
not_integration() {
    local own
    own="$(sed -nE 's/^(public |internal |private |fileprivate )?(final class|class|struct|enum|actor) ([A-Za-z0-9_]+).*/\3/p' \
        "$AHC"/Tests/APIKitAsyncHTTPClientTests/*.swift | sort -u | paste -sd'|')"
    echo "^(?!APIKitAsyncHTTPClientTests\\.)|^APIKitAsyncHTTPClientTests\\.($own)/"
}

# ahc_run TRANSPORT LOG OPTION...: `swift test --skip-build` in the AsyncHTTPClient package with
# APIKIT_TEST_TRANSPORT=TRANSPORT, its output also in .build-servers/LOG.log. Without arguments on
# the command line, fails unless it ran at least one test, so that a skip matching everything
# cannot pass.
ahc_run() {
    local transport="$1" log="$SERVE_STATE/$2.log" count
    shift 2
    APIKIT_TEST_TRANSPORT="$transport" swift test --package-path "$AHC" --skip-build "$@" 2>&1 | tee "$log" || return
    count="$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)"
    echo "test.sh: $count tests ran over $transport" >&2
    if ((count == 0 && ${#args[@]} == 0)); then echo "test.sh: no test ran over $transport (see $log)" >&2 && return 1; fi
}

# tests NAME BUILD_OPTION...: step 4 (or 6, with the sanitizer's options): builds the
# AsyncHTTPClient package with its tests, then runs them over AsyncHTTPClient and the integration
# suite over URLSession; the command line's arguments are added to both runs.
tests() {
    local name="$1" serial=() skip
    shift
    if [[ "$name" == tsan ]]; then serial=(--no-parallel); fi
    skip="$(not_integration)"
    run "$name build of $AHC with every test target" swift build --package-path "$AHC" --build-tests "$@"
    if ((rc == 0)) && [[ -z "${APIKIT_HTTPBIN_URL:-}" ]]; then start_servers || rc=$?; fi
    run "$name tests over AsyncHTTPClientTransport (unit, transport, integration)" \
        ahc_run asynchttpclient "tests-$name-ahc" "$@" ${serial[@]+"${serial[@]}"} ${args[@]+"${args[@]}"}
    run "$name integration suite over URLSessionTransport" ahc_run urlsession "tests-$name-urlsession" "$@" \
        ${serial[@]+"${serial[@]}"} --skip "$skip" ${args[@]+"${args[@]}"}
}

args=("$@")
install_start
skip APIKIT_SKIP_LINT || run lint lint
skip APIKIT_SKIP_API_CHECK || run "API check" bash scripts/api-check.sh
# With the AsyncHTTPClient package, docs run after its build (step 4), so that the transport's
# doc examples are type-checked too (APIKIT_DOCS_TRANSPORT=1 makes an unchecked one a failure).
if skip APIKIT_SKIP_AHC; then skip APIKIT_SKIP_DOCS || run docs bash scripts/docs.sh; fi
if ((rc != 0)); then
    install_wait || true
    exit "$rc"
fi

if skip APIKIT_SKIP_AHC; then
    run "build: the root package with its tests" swift build --build-tests
    if ((rc == 0)); then start_servers || rc=$?; fi
    run "swift test in the root package (over URLSession)" swift test --skip-build "$@"
    skip APIKIT_SKIP_EXAMPLES || run examples bash scripts/run-examples.sh
    skip APIKIT_SKIP_TSAN || run "swift test in the root package under TSan" \
        swift test --sanitize=thread --scratch-path .build-tsan --no-parallel "$@"
else
    tests plain
    skip APIKIT_SKIP_DOCS || run docs env APIKIT_DOCS_TRANSPORT=1 bash scripts/docs.sh
    skip APIKIT_SKIP_EXAMPLES || run examples bash scripts/run-examples.sh
    skip APIKIT_SKIP_TSAN || tests tsan --sanitize=thread --scratch-path "$AHC/.build-tsan"
fi
serve_stop
if [[ "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then run fuzzing bash scripts/fuzz.sh "${APIKIT_FUZZ_SECONDS:-20}"; fi
echo "test.sh: $( ((rc == 0)) && echo passed || echo FAILED) after $((SECONDS - started)) s" >&2
exit "$rc"
