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

if [[ -z "${APIKIT_BENCH_URL:-}" ]]; then
    serve_fixtures bench-nginx "$STATE" "the load probe needs it"
    say "nginx serves Benchmarks/Fixtures at $APIKIT_BENCH_URL"
fi

load() { say "load: $(uptime | sed 's/.*load average/load average/')"; top -bn1 | sed -n '7,12p' >&2; }
load
"$bin" "$@"
load
