#!/usr/bin/env bash
# scripts/test.sh — APIKit's two test commands; CI (.ci/run) runs the full one.
#
#   bash scripts/test.sh --quick    # the edit-test loop: steps 1, 3, 4, 5, and 6 when the change reaches
#                                   # the AsyncHTTPClient transport (below)
#   bash scripts/test.sh            # everything, in order: steps 1–5 and 7–9 (step 6's tests run in 7b)
#   bash scripts/test.sh [--quick] --filter QueryTests
#                                   # arguments: lint (with API check and docs unless --quick), then only
#                                   # `swift test ARGUMENTS` in the root package, against the servers
#
# A failing step ends the run (the servers are stopped on every exit path); the exit code is the
# failing step's. Every step prints `test.sh: STEP: exit CODE after SECONDS s` (scripts/busy-machine.sh
# collects these lines), and the last line says what did not run. Each step, and the switch that skips it:
#   1. lint: scripts/format.sh --lint (swift-format; bash -n and shellcheck on scripts/);
#      .github/workflows/ci.yml parses and has its linux, macos and ios jobs; and the AsyncHTTPClient
#      package compiles the root's integration suite and none of its unit test folders  APIKIT_SKIP_LINT=1
#   2. API check: scripts/api-check.sh against api-baseline/                        APIKIT_SKIP_API_CHECK=1
#   3. the root package's build with its test targets and example programs, in .build: no SwiftNIO
#      to compile; steps 2, 4, 5 and 8 share it (the servers' installation runs beside it)
#   4. the root package's tests, in parallel, with APIKIT_REQUIRE_HTTPBIN=1 (a missing server fails
#      the integration tests instead of skipping them): the unit tests and the integration suite
#      over URLSessionTransport and URLSession
#   5. the example programs: scripts/run-examples.sh (built in step 3)             APIKIT_SKIP_EXAMPLES=1
#   6. the AsyncHTTPClient package (Transports/AsyncHTTPClient/.build), whose one test target holds
#      the transport's own tests (TLS included) and the root integration suite (symlinked), run
#      in parallel over AsyncHTTPClientTransport. The quick command runs it when the change reaches
#      the transport: when a file under AHC_REACH (below: the package, the seam it implements, the
#      tests it runs and their helpers, the servers, this script) differs from what the last passing
#      run of this step in this checkout saw (a stamp in that .build), or, before any such run, from
#      the merge base with main (origin/main, else main; without one, it runs). So a fresh clone of
#      main skips it and a branch that touched the transport runs it once, then after each change
#      to those files. The full pass runs these tests in step 7b, from the sanitizer's build
#      instead (one SwiftNIO build, not two), and step 6 only with APIKIT_SKIP_TSAN=1.
#                                            APIKIT_WITH_AHC=1 runs it always, APIKIT_SKIP_AHC=1 never
#   7. the thread sanitizer, one test at a time in each of its two runs (TSan slows the code several
#      times; the suite's "promptly" bounds do not hold for hundreds of instrumented tests in parallel
#      on 2 cores), the two runs side by side; a data race fails the run          APIKIT_SKIP_TSAN=1
#        a. the root package in .build-tsan: step 4's tests but APIKitParsersTests (the parsers share
#           no state and start no task; step 4 runs those tests and step 9 fuzzes the parsers under
#           ASan): the core's pipeline, retries, streams, downloads and URLSessionTransport;
#        b. the AsyncHTTPClient package in Transports/AsyncHTTPClient/.build-tsan: step 6's tests
#           (unless APIKIT_SKIP_AHC=1).
#   8. docs: scripts/docs.sh (doc comments, DocC with warnings as errors, every doc example type-
#      checked with warnings as errors; the transport's examples against step 7b's build, else
#      step 6's); it runs between step 7's two builds and its two runs, to fail early  APIKIT_SKIP_DOCS=1
#   9. the libFuzzer targets: scripts/fuzz.sh, APIKIT_FUZZ_SECONDS each [20]      APIKIT_FUZZ_SECONDS=0
# APIKIT_ONLY_AHC=1 runs steps 6 and 7b alone (7b unless --quick or APIKIT_SKIP_TSAN=1), the
# arguments added to each run. Each test run must run at least one test unless arguments narrow it.
#
# The servers, their URLs exported: httpbin under gunicorn (APIKIT_HTTPBIN_URL), the fault server
# (APIKIT_FAULT_URL), the Content-Length-only server (APIKIT_LENGTH_URL), moto's S3 (APIKIT_S3_URL,
# presigned URLs through APIKIT_PRESIGN_COMMAND), FastAPI on uvicorn (APIKIT_FASTAPI_URL) and,
# when the AsyncHTTPClient package's tests run, nginx with HTTP/2 over TLS in front of httpbin,
# its certificates from a CA made for the run (APIKIT_TLS_URL, APIKIT_TLS_WRONG_NAME_URL,
# APIKIT_TLS_CA). Their logs and each test run's output: .build-servers/.
# shellcheck disable=SC2317 # the step functions run through run(), which ShellCheck does not follow
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
AHC=Transports/AsyncHTTPClient
# What step 6 depends on, besides the core's internals (which step 4 tests over URLSession): the
# package; the seam it implements (the Transport protocol and the request bodies and progress it
# reads); the tests it runs and their helpers; the root manifest; the servers; this script. A path
# missing here (moved by a refactoring) makes the quick command run step 6 and say so.
AHC_REACH=("$AHC" Sources/APIKit/Transport Sources/APIKit/Body Sources/APIKit/Observing
    Tests/APIKitIntegrationTests Tests/APIKitTestSupport Tests/APIKitTestTime Package.swift scripts/servers
    scripts/test.sh)
AHC_STAMP="$AHC/.build/apikit-tests-passed"

quick=0
if [[ "${1:-}" == --quick ]]; then
    shift
    quick=1
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_TSAN=1 APIKIT_FUZZ_SECONDS=0
fi
only_ahc=0
if [[ "${APIKIT_ONLY_AHC:-0}" == 1 ]]; then
    only_ahc=1
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_LINT=1 APIKIT_SKIP_API_CHECK=1 APIKIT_SKIP_DOCS=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_AHC=0
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_FUZZ_SECONDS=0 APIKIT_WITH_AHC=1
elif (($#)); then
    # shellcheck disable=SC2034 # read by skip()
    APIKIT_SKIP_AHC=1 APIKIT_SKIP_EXAMPLES=1 APIKIT_SKIP_TSAN=1 APIKIT_FUZZ_SECONDS=0
fi
# The suppressions name races inside dependencies that TSan cannot see ordered; each says why.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0 second_deadlock_stack=1 suppressions=$ROOT/scripts/tsan-suppressions.txt}"
rc=0
started=$SECONDS
not_run=()

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

# The AsyncHTTPClient package's test target must compile the root's integration suite (step 6
# and 7b run it over that transport), and none of the root's other test folders: those run in
# the root package (steps 4 and 7a), and compiling them beside SwiftNIO again is what made a
# build of that package twice as long.
test_graph_check() {
    local root ahc
    root="$(swift package dump-package)" && ahc="$(swift package --package-path "$AHC" dump-package)" || return 1
    "${APIKIT_PYTHON:-python3}" - "$ROOT" "$root" "$ROOT/$AHC" "$ahc" <<'PY'
import json, os, sys

def test_folders(base, manifest):
    folders = {}
    for target in json.loads(manifest)["targets"]:
        if target["type"] != "test":
            continue
        path = os.path.join(base, target.get("path") or os.path.join("Tests", target["name"]))
        for source in target.get("sources") or [""]:
            folders[os.path.realpath(os.path.join(path, source))] = target["name"]
    return folders

root, ahc = test_folders(sys.argv[1], sys.argv[2]), test_folders(sys.argv[3], sys.argv[4])
suite = os.path.realpath(os.path.join(sys.argv[1], "Tests", "APIKitIntegrationTests"))
problems = []
if suite not in ahc:
    problems.append("does not compile the root's integration suite (Tests/APIKitIntegrationTests): "
                    "steps 6 and 7b run it over AsyncHTTPClientTransport")
twice = sorted(os.path.relpath(folder, sys.argv[1]) for folder in set(root) & set(ahc) if folder != suite)
if twice:
    problems.append(f"compiles the root's test folders {twice}, which the root package runs (steps 4 and 7a)")
for problem in problems:
    print(f"test.sh: Transports/AsyncHTTPClient/Package.swift {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

# fingerprint: one line for the content of every file under AHC_REACH (git's list: tracked and
# untracked, not ignored; a symlink by its target).
fingerprint() {
    git ls-files -z --cached --others --exclude-standard -- "${AHC_REACH[@]}" |
        "${APIKIT_PYTHON:-python3}" -c '
import hashlib, os, sys
digest = hashlib.sha256()
for path in sorted(set(filter(None, sys.stdin.buffer.read().split(b"\0")))):
    if os.path.islink(path):
        content = os.readlink(path)
    elif os.path.isfile(path):
        content = open(path, "rb").read()
    else:
        content = b"(gone)"
    digest.update(path + b"\0" + hashlib.sha256(content).digest())
print(digest.hexdigest())'
}

# ahc_reached: whether the quick command runs step 6; says why either way.
ahc_reached() {
    local path base changed
    for path in "${AHC_REACH[@]}"; do
        if [[ ! -e "$path" ]]; then
            echo "test.sh: AHC_REACH names $path, which is gone: running step 6 (update AHC_REACH in scripts/test.sh)" >&2
            return 0
        fi
    done
    if ! git rev-parse --git-dir >/dev/null 2>&1; then
        echo "test.sh: not a git checkout: running step 6" >&2 && return 0
    fi
    if [[ -f "$AHC_STAMP" ]]; then
        if [[ "$(cat "$AHC_STAMP")" == "$(fingerprint)" ]]; then
            echo "test.sh: step 6 passed here before with the files it depends on as they are now (AHC_REACH in" \
                "scripts/test.sh): not run (APIKIT_WITH_AHC=1 runs it)" >&2 && return 1
        fi
        echo "test.sh: files step 6 depends on changed since it last passed here: running it" >&2 && return 0
    fi
    for ref in origin/main main; do
        if base="$(git merge-base HEAD "$ref" 2>/dev/null)"; then break; fi
        base=""
    done
    if [[ -z "$base" ]]; then echo "test.sh: no main branch to compare with: running step 6" >&2 && return 0; fi
    changed="$({
        git diff --name-only "$base" -- "${AHC_REACH[@]}"
        git ls-files --others --exclude-standard -- "${AHC_REACH[@]}"
    } | head -3)"
    if [[ -n "$changed" ]]; then
        echo "test.sh: this checkout changes what step 6 depends on (against $ref: $(paste -sd' ' <<<"$changed")…): running it" >&2
        return 0
    fi
    echo "test.sh: no change against $ref (${base:0:10}) to the files step 6 depends on (AHC_REACH in" \
        "scripts/test.sh): not run (APIKIT_WITH_AHC=1 runs it)" >&2
    return 1
}

start_servers() {
    local tls_wanted="$1"
    install_wait || return
    if ! skip APIKIT_SKIP_LINT; then
        run "lint: ci.yml" workflow_check
        if ((rc != 0)); then return "$rc"; fi
    fi
    serve httpbin fault length moto fastapi
    APIKIT_PRESIGN_COMMAND="$(printf '%q %q' "$VENV/bin/python" "$ROOT/scripts/servers/s3_presign.py")"
    export APIKIT_PRESIGN_COMMAND APIKIT_REQUIRE_HTTPBIN=1
    if ((tls_wanted)); then
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

# servers: starts them once, with nginx when the AsyncHTTPClient package's tests will run.
servers() {
    if ((rc == 0)) && [[ -z "${APIKIT_HTTPBIN_URL:-}" ]]; then start_servers "$with_ahc" || rc=$?; fi
}

# counted LOG COMMAND...: runs COMMAND (a `swift test`), its output also in .build-servers/LOG.log.
# Fails unless it ran at least one test, so that a skip, or arguments (a misspelt `--filter`)
# that match no test, cannot pass.
counted() {
    local log="$SERVE_STATE/$1.log" count
    shift
    "$@" 2>&1 | tee "$log" || return
    count="$(grep -Eo 'Test run with [0-9]+ tests?' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)"
    echo "test.sh: $count tests ran (${log#"$ROOT/"})" >&2
    if ((count > 0)); then return 0; fi
    if ((${#args[@]})); then
        echo "test.sh: no test matched the arguments '${args[*]}' (see $log)" >&2
    else
        echo "test.sh: no test ran (see $log)" >&2
    fi
    return 1
}

# ahc_build NAME SCRATCH [--sanitize=thread]: step 6's build (or 7b's, with the sanitizer) of
# the AsyncHTTPClient package with its tests, in SCRATCH; ahc_run NAME SCRATCH [--sanitize=thread]
# runs them over AsyncHTTPClientTransport (one at a time under the sanitizer).
ahc_build() {
    local name="$1" scratch="$2"
    shift 2
    run "$name build of $AHC (SwiftNIO, the transport, its tests and the integration suite)" \
        swift build --package-path "$AHC" --scratch-path "$scratch" --build-tests "$@"
    # SCRATCH/debug, not the triple's folder: docs.sh finds SwiftNIO's C modules in SCRATCH/checkouts.
    if ((rc == 0)); then ahc_bin="$ROOT/$scratch/debug"; fi
}
ahc_run() {
    local name="$1" scratch="$2" serial=()
    shift 2
    if [[ "$name" == tsan ]]; then serial=(--no-parallel); fi
    servers
    run "$name tests over AsyncHTTPClientTransport (the transport's, the integration suite)" \
        counted "tests-$name-ahc" env APIKIT_TEST_TRANSPORT=asynchttpclient swift test --package-path "$AHC" \
        --scratch-path "$scratch" --skip-build "$@" ${serial[@]+"${serial[@]}"} ${args[@]+"${args[@]}"}
}

args=("$@")
ahc_bin=""
with_ahc=0
if ! skip APIKIT_SKIP_AHC; then
    if skip APIKIT_WITH_AHC || ((quick == 0)); then
        with_ahc=1
    elif ahc_reached; then
        with_ahc=1
    fi
fi
if ((with_ahc == 0)); then not_run+=("AsyncHTTPClientTransport's tests"); fi
install_start
skip APIKIT_SKIP_LINT || run lint lint
skip APIKIT_SKIP_API_CHECK || run "API check" bash scripts/api-check.sh
if ((rc != 0)); then
    install_wait || true
    exit "$rc"
fi

if ((only_ahc == 0)); then
    run "build: the root package with its tests and examples" swift build --build-tests
    servers
    run "tests in the root package (unit, integration over URLSession)" \
        counted tests-root swift test --skip-build ${args[@]+"${args[@]}"}
    skip APIKIT_SKIP_EXAMPLES || run examples bash scripts/run-examples.sh
fi
# Step 6: in the quick command when reached; in the full pass when asked for or without step 7b,
# which runs its tests otherwise.
if ((with_ahc)) && { ((quick || only_ahc)) || skip APIKIT_WITH_AHC || skip APIKIT_SKIP_TSAN; }; then
    ahc_build plain "$AHC/.build"
    ahc_run plain "$AHC/.build"
    if ((rc == 0 && ${#args[@]} == 0)); then fingerprint >"$AHC_STAMP"; fi
fi
# Step 7, its two builds first, so that the docs (which need the transport's module) fail early.
tsan_root=(--sanitize=thread --scratch-path .build-tsan)
if ! skip APIKIT_SKIP_TSAN; then
    if ((only_ahc == 0)); then
        run "tsan build of the root package with its tests" swift build --build-tests "${tsan_root[@]}"
    fi
    if ! skip APIKIT_SKIP_AHC; then ahc_build tsan "$AHC/.build-tsan" --sanitize=thread; fi
fi
# Step 8. The transport's doc examples need its module: from the last build of that package this run made.
if ! skip APIKIT_SKIP_DOCS; then
    if [[ -n "$ahc_bin" ]]; then
        run docs env APIKIT_DOCS_TRANSPORT=1 APIKIT_AHC_BIN="$ahc_bin" bash scripts/docs.sh
    else
        run docs bash scripts/docs.sh
        if [[ ! -d "$AHC/.build/debug" ]]; then not_run+=("the AsyncHTTPClient transport's doc examples"); fi
    fi
fi
# Step 7's two runs, each one test at a time, side by side: two serial test processes keep the two
# cores busy where one left the other mostly idle (it waits on the servers and its own threads).
# The root package's run goes to its log only; its failures are printed when it ends.
tsan_root_run() {
    run "tsan tests in the root package (unit but APIKitParsersTests, integration over URLSession)" \
        counted tests-tsan-root swift test --skip-build "${tsan_root[@]}" --no-parallel \
        --skip '^APIKitParsersTests\.' ${args[@]+"${args[@]}"}
}
if ! skip APIKIT_SKIP_TSAN; then
    servers
    root_pid=""
    if ((only_ahc == 0 && rc == 0)); then
        if skip APIKIT_SKIP_AHC; then
            tsan_root_run
        else
            (tsan_root_run >/dev/null; exit "$rc") &
            root_pid=$!
        fi
    fi
    if ! skip APIKIT_SKIP_AHC; then ahc_run tsan "$AHC/.build-tsan" --sanitize=thread; fi
    if [[ -n "$root_pid" ]]; then
        root_rc=0
        wait "$root_pid" || root_rc=$?
        if ((root_rc != 0)); then
            grep -E '^(✘|.*WARNING: ThreadSanitizer|.*Fatal error)' "$SERVE_STATE/tests-tsan-root.log" | head -200 >&2 || true
            echo "test.sh: the root package's sanitizer run failed: $SERVE_STATE/tests-tsan-root.log" >&2
            if ((rc == 0)); then rc=$root_rc; fi
        fi
    fi
fi
serve_stop
if [[ "${APIKIT_FUZZ_SECONDS:-20}" != 0 ]]; then run fuzzing bash scripts/fuzz.sh "${APIKIT_FUZZ_SECONDS:-20}"; fi
for step in API_CHECK:"the API check" DOCS:docs TSAN:"the thread sanitizer"; do
    if skip "APIKIT_SKIP_${step%%:*}"; then not_run+=("${step#*:}"); fi
done
if [[ "${APIKIT_FUZZ_SECONDS:-20}" == 0 ]]; then not_run+=(fuzzing); fi
summary="$( ((rc == 0)) && echo passed || echo FAILED) after $((SECONDS - started)) s"
if ((${#not_run[@]})); then summary+="; not run: $(printf '%s, ' "${not_run[@]}" | sed 's/, $//')"; fi
echo "test.sh: $summary" >&2
exit "$rc"
