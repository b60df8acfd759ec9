#!/usr/bin/env bash
# scripts/coverage.sh — which lines of Sources/ the root package's tests run: the unit tests and
# the integration suite over URLSessionTransport, against the real servers (as scripts/test.sh
# step 4 runs them), measured with the toolchain's llvm-cov.
#
#   bash scripts/coverage.sh            # a line per file of Sources/ (lines, lines not run, %), the total last
#   bash scripts/coverage.sh FILE...    # the lines of those files that no test ran, numbered
#   bash scripts/coverage.sh --skip-tests [FILE...]
#                                       # the same from the last run's profile, without testing again
#
# A map for a reviewer, not a gate: neither scripts/test.sh nor CI runs it. It builds into
# .build-cov (apart from .build, which the instrumented build would otherwise replace), starts the
# servers with scripts/servers/serve.sh and stops them on exit; a failing test fails the run, as a
# profile of a half-run suite would under-count. The AsyncHTTPClient package's sources are not
# measured here. The test run's output: .build-servers/tests-coverage.log.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
SCRATCH=.build-cov

run_tests=1
if [[ "${1:-}" == --skip-tests ]]; then
    shift
    run_tests=0
fi
for file in "$@"; do
    [[ -f "$file" ]] || { echo "coverage.sh: no file '$file'" >&2; exit 2; }
done

# The llvm-cov beside the swift in use: another LLVM's cannot read this toolchain's profiles.
swift_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
llvm_cov="$swift_bin/llvm-cov"
[[ -x "$llvm_cov" ]] || llvm_cov="$(xcrun --find llvm-cov 2>/dev/null || true)"
[[ -x "$llvm_cov" ]] || { echo "coverage.sh: no llvm-cov beside $swift_bin/swift" >&2; exit 1; }

if ((run_tests)); then
    serve_install
    swift build --build-tests --enable-code-coverage --scratch-path "$SCRATCH" >&2
    serve httpbin fault length moto fastapi
    APIKIT_PRESIGN_COMMAND="$(printf '%q %q' "$VENV/bin/python" "$ROOT/scripts/servers/s3_presign.py")"
    export APIKIT_PRESIGN_COMMAND APIKIT_REQUIRE_HTTPBIN=1
    echo "coverage.sh: running the tests (log: .build-servers/tests-coverage.log)" >&2
    if ! swift test --skip-build --parallel --enable-code-coverage --scratch-path "$SCRATCH" \
        >"$SERVE_STATE/tests-coverage.log" 2>&1; then
        tail -n 30 "$SERVE_STATE/tests-coverage.log" >&2
        echo "coverage.sh: the tests failed; no coverage is reported" >&2
        exit 1
    fi
    serve_stop
fi

bin="$(swift build --enable-code-coverage --scratch-path "$SCRATCH" --show-bin-path)"
profile="$bin/codecov/default.profdata"
tests="$bin/APIKitPackageTests.xctest"
[[ "$(uname)" == Darwin ]] && tests="$tests/Contents/MacOS/APIKitPackageTests"
[[ -f "$profile" && -e "$tests" ]] || { echo "coverage.sh: no profile in $bin: run without --skip-tests" >&2; exit 1; }

if (($# == 0)); then
    # llvm-cov's columns: file, regions (3), functions (3), lines, lines missed, line cover, ...
    "$llvm_cov" report "$tests" -instr-profile "$profile" -ignore-filename-regex='/(\.build[^/]*|Tests|Benchmarks)/' \
        "$ROOT/Sources" >"$SCRATCH/coverage-report.txt"
    printf '%-72s %6s %6s %8s\n' "file (under Sources/), most lines not run first" lines "not run" cover
    awk 'NR > 2 && NF >= 10 && $1 != "TOTAL" { printf "%-72s %6s %6s %8s\n", $1, $8, $9, $10 }' \
        "$SCRATCH/coverage-report.txt" | sort -k3,3nr -k1,1
    awk '$1 == "TOTAL" { printf "%-72s %6s %6s %8s\n", $1, $8, $9, $10 }' "$SCRATCH/coverage-report.txt"
    exit 0
fi
for file in "$@"; do
    echo "== $file: lines no test ran"
    # llvm-cov's text view: "  LINE|  COUNT|source"; a count of 0 is a line no test ran
    "$llvm_cov" show "$tests" -instr-profile "$profile" "$(cd "$(dirname "$file")" && pwd -P)/$(basename "$file")" \
        -show-line-counts -show-instantiations=false -use-color=false |
        awk '{ n = index($0, "|"); rest = substr($0, n + 1); m = index(rest, "|")
               if (n && m && substr(rest, 1, m - 1) ~ /^ *0$/) printf "%5d %s\n", substr($0, 1, n - 1), substr(rest, m + 1) }'
done
