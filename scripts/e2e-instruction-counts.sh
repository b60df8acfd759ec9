#!/usr/bin/env bash
# scripts/e2e-instruction-counts.sh — instructions per request of the end-to-end benchmarks'
# request, counted by callgrind, `perform` against a raw URLSession data task, 50 in flight and
# sequential: exact where the wall-clock ratios on a shared 2-core VM move by several percent.
#
#   bash scripts/e2e-instruction-counts.sh
#
# Each side runs 2 and 6 batches (50 in flight) or 20 and 60 requests (sequential) after a warm-up
# batch; the difference per request is reported, so start-up and connection set-up are left out.
# Compared: the whole process's instructions per request (every thread: the client's own work,
# URLSession's and its network threads', whose share follows the timing of the run a little),
# and the JSON decode's share of them. Uses the server at APIKIT_BENCH_URL, or starts nginx as
# scripts/benchmark.sh does. Installs valgrind (and nginx) with apt-get when missing and root.
# APIKIT_E2E_COUNTS_REUSE=1 summarises the last run's profiles (.build-bench/e2e-counts/) again.
# APIKIT_E2E_SIDES="session traffic" compares `perform(using:)` through a Session without and with
# a TrafficControl whose limits are never reached (default: "apikit raw"); "session cache", without
# and with an HTTPCache that the server's `Cache-Control: no-store` leaves nothing to answer.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PACKAGE="$ROOT/Benchmarks/EndToEndCounts"
STATE="$ROOT/.build-bench/e2e-counts"
mkdir -p "$STATE"
# shellcheck source=scripts/servers/serve.sh
source "$ROOT/scripts/servers/serve.sh"
command -v valgrind >/dev/null || apt_install valgrind "it counts the instructions"
if [[ -z "${APIKIT_BENCH_URL:-}" ]]; then
    serve_fixtures e2e-nginx "$STATE" "the counts need a server (or set APIKIT_BENCH_URL)"
fi

swift build --package-path "$PACKAGE" -c release >&2
BINARY="$(swift build --package-path "$PACKAGE" -c release --show-bin-path)/EndToEndCounts"

# profile SIDE BATCHES IN_FLIGHT: callgrind_annotate's inclusive table of one run.
profile() {
    local out="$STATE/$1-$3-$2"
    if [[ -n "${APIKIT_E2E_COUNTS_REUSE:-}" && -f "$out.cg" ]]; then
        printf '%s.txt' "$out"
        return
    fi
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$out.cg" \
        "$BINARY" "$1" "$2" "$3" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$out.cg" >"$out.txt" 2>/dev/null
    printf '%s.txt' "$out"
}

printf '| case | side | whole process | JSON decode |\n'
printf '| --- | --- | --: | --: |\n'
for shape in "50 in flight:2:6:50" "sequential:20:60:1"; do
    IFS=: read -r name low high inflight <<<"$shape"
    for side in ${APIKIT_E2E_SIDES:-apikit raw}; do
        python3 - "$name" "$side" "$(profile "$side" "$low" "$inflight")" "$(profile "$side" "$high" "$inflight")" \
            $(((high - low) * inflight)) <<'PY'
import re, sys
name, side, low, high, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
def load(path):
    costs = {}
    for line in open(path):
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+(\S+?):(\$\S+)', line)
        if m:
            key = (m.group(2), m.group(3))
            costs[key] = max(costs.get(key, 0), int(m.group(1).replace(',', '')))
    return costs
a, b = load(low), load(high)
def per(pattern):
    # A function shows up once per source file its inlined code comes from; when one of
    # them is named by its absolute path, that one holds the whole function, else the
    # parts add up. Of several functions matching (thunks), the outermost counts.
    r = re.compile(pattern)
    totals = []
    for symbol in {k[1] for k in set(a) | set(b) if r.fullmatch(k[1])}:
        keys = [k for k in set(a) | set(b) if k[1] == symbol]
        whole = [k for k in keys if k[0].startswith('/') and not k[0].startswith('//')]
        cost = lambda c, ks: max([c.get(k, 0) for k in ks]) if whole else sum(c.get(k, 0) for k in ks)
        totals.append(cost(b, whole or keys) - cost(a, whole or keys))
    return max(totals or [0]) / n
def total(path):
    for line in open(path):
        m = re.match(r'\s*([\d,]+) \([^)]*\)\s+PROGRAM TOTALS', line)
        if m:
            return int(m.group(1).replace(',', ''))
    sys.exit(f'no PROGRAM TOTALS in {path}')
whole = (total(high) - total(low)) / n
decode = per(r'\$s20FoundationEssentials11JSONDecoderC6decode_4fromxxm_AA4DataVtKSeRzlF')
print(f'| {name} | {side} | {whole:,.0f} | {decode:,.0f} |')
PY
    done
done
