#!/usr/bin/env bash
# scripts/transport-load.sh — the transport benchmarks' GET under load, without package-benchmark:
# builds Benchmarks' TransportLoad in release, starts nginx on Benchmarks/Fixtures as
# scripts/benchmark.sh does (nginx-light installed with apt-get when missing and root), runs the
# probe, and stops nginx on every exit path. Arguments go to the probe unchanged:
#
#   bash scripts/transport-load.sh                                  # URLSession, AHC transport, raw AHC
#   bash scripts/transport-load.sh --clients ahc,ahc-cb,raw,raw-future --modes 50 --rounds 5
#
# Options and clients: the top of Benchmarks/Sources/TransportLoad/TransportLoad.swift. The
# machine's load is printed before and after the run. APIKIT_BENCH_URL=URL uses that server instead.
# APIKIT_LOAD_PIN=1 pins nginx to the last core and the probe to the others (taskset): on a 2-core
# VM the scheduler otherwise places the client's threads and nginx differently from run to run,
# which moves a sequential ratio between 0.6 and 1.0 (Benchmarks/README.md, "Pinned").
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
STATE="$ROOT/.build-bench"
mkdir -p "$STATE"
say() { printf 'transport-load.sh: %s\n' "$*" >&2; }

swift build --package-path Benchmarks -c release --product TransportLoad >&2
bin="$(swift build --package-path Benchmarks -c release --show-bin-path)/TransportLoad"

cores="$(nproc)"
if [[ -n "${APIKIT_LOAD_PIN:-}" ]]; then
    ((cores >= 2)) || { say "APIKIT_LOAD_PIN needs 2 cores or more"; exit 2; }
    # This shell, and so the nginx it starts, on the last core; the probe on the others.
    taskset -cp "$((cores - 1))" $$ >/dev/null
    probe=(taskset -c "0-$((cores - 2))" "$bin")
else
    probe=("$bin")
fi

if [[ -z "${APIKIT_BENCH_URL:-}" ]]; then
    serve_fixtures bench-nginx "$STATE" "the load probe needs it"
    say "nginx serves Benchmarks/Fixtures at $APIKIT_BENCH_URL"
fi

load() { say "load: $(uptime | sed 's/.*load average/load average/')"; top -bn1 | sed -n '7,12p' >&2; }
load
"${probe[@]}" "$@"
load
