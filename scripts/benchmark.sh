#!/usr/bin/env bash
# scripts/benchmark.sh — package-benchmark's `swift package benchmark` on Benchmarks/, with the
# server its end-to-end benchmarks need. Arguments go to it unchanged:
#
#   bash scripts/benchmark.sh --filter 'Encode.*'                  # a run (regex on whole names)
#   bash scripts/benchmark.sh --format markdown
#   bash scripts/benchmark.sh baseline update before               # package-benchmark's baselines:
#   bash scripts/benchmark.sh baseline compare before              #   the table of differences
#   bash scripts/benchmark.sh baseline check before                #   exit 1 past the thresholds
#
# What the harness does not do, this does: nginx serving Benchmarks/Fixtures/ on a free 127.0.0.1
# port (scripts/servers/nginx.sh; nginx-light installed with apt-get when missing and root, else
# the end-to-end benchmarks are skipped), its URL in APIKIT_BENCH_URL, stopped on every exit path;
# and after a run, the APIKit ÷ baseline ratios within each group (scripts/benchmark-ratios.py) and
# how much CPU other processes took meanwhile.
#
#   APIKIT_BENCH_RUNS=N         the run N times [1]; the ratios are the medians over the runs
#   APIKIT_BENCH_URL=URL        use that server; APIKIT_BENCH_NO_E2E=1: none (e2e skipped)
#   APIKIT_BENCH_SWIFT_FLAGS    options for `swift package` itself, e.g. --disable-sandbox on macOS
# Each run's output: .build-bench/run-N.txt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
STATE="$ROOT/.build-bench"
mkdir -p "$STATE"
say() { printf 'benchmark.sh: %s\n' "$*" >&2; }

if [[ -z "${APIKIT_BENCH_URL:-}" && "${APIKIT_BENCH_NO_E2E:-0}" != 1 ]]; then
    if serve_fixtures bench-nginx "$STATE" "the end-to-end benchmarks need it"; then
        say "nginx serves Benchmarks/Fixtures at $APIKIT_BENCH_URL"
    else
        say "no nginx: the end-to-end benchmarks are skipped"
    fi
fi

# CPU-seconds the whole machine has been busy (/proc/stat); `times` in this shell (not in a
# subshell) gives what its children — the build, the benchmarks, nginx — took of them.
busy() { awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { print ($2 + $3 + $4 + $7 + $8) / hz }' /proc/stat 2>/dev/null || echo 0; }
seconds() { awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }
busy_before="$(busy)" started=$SECONDS
times >"$STATE/times-before.txt"

runs="${APIKIT_BENCH_RUNS:-1}" outputs=() ratios=1
case " $* " in *" baseline "* | *" thresholds "* | *" list "* | *" help "*) runs=1 ratios=0 ;; esac
for ((run = 1; run <= runs; run++)); do
    outputs+=("$STATE/run-$run.txt")
    # shellcheck disable=SC2086 # APIKIT_BENCH_SWIFT_FLAGS holds several words
    swift package --package-path Benchmarks --allow-writing-to-package-directory ${APIKIT_BENCH_SWIFT_FLAGS:-} \
        benchmark "$@" | tee "$STATE/run-$run.txt"
done

serve_stop
times >"$STATE/times-after.txt"
awk -v b="$(busy)" -v b0="$busy_before" -v o="$(seconds "$STATE/times-after.txt")" \
    -v o0="$(seconds "$STATE/times-before.txt")" -v t=$((SECONDS - started)) 'BEGIN {
    other = (b - b0) - (o - o0); if (other < 0) other = 0
    printf "benchmark.sh: other processes used %.0f CPU-seconds during the %d s run (%.0f%% of one core)\n", other, t, t ? 100 * other / t : 0
}' >&2
if ((ratios)); then python3 scripts/benchmark-ratios.py "${outputs[@]}"; fi
