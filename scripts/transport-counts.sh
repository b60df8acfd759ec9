#!/usr/bin/env bash
# scripts/transport-counts.sh — instructions per request of each transport client, and where they
# go, counted by valgrind's callgrind: counts that do not depend on how busy the machine is.
#
#   bash scripts/transport-counts.sh                        # --body user --clients ahc,raw --requests 200
#   bash scripts/transport-counts.sh --body items --clients ahc,ahc-cb,raw --requests 100
#   bash scripts/transport-counts.sh --tracer none          # the HTTPClient without tracing
#   bash scripts/transport-counts.sh --clients urlsession-cb,raw-urlsession --cookie-storage none
#                                                           # URLSession clients, no cookie storage
#
# Builds Benchmarks' TransportLoad in release and starts nginx on Benchmarks/Fixtures as
# scripts/transport-load.sh does. For each client it runs TransportLoad under callgrind twice,
# with `--count 0` and `--count K` (5 warm-up requests, then K requests one at a time), so the
# difference of the two runs, divided by K, is one request: the process's instructions in all,
# split by the library or Swift module they ran in, and the synchronous stages of APIKit (see
# scripts/transport-counts.py). Valgrind (Debian's valgrind, 3.19 or later) cannot read the DWARF of Swift
# binaries, so it runs a copy stripped of debug information; the symbols stay.
# Output and callgrind files: .build-bench/counts/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh
STATE="$ROOT/.build-bench"
OUT="$STATE/counts"
mkdir -p "$OUT"
say() { printf 'transport-counts.sh: %s\n' "$*" >&2; }

body=user clients=ahc,raw requests=200 tracer=default cookies=default
while (($#)); do
    case "$1" in
    --body) body="$2" ;;
    --clients) clients="$2" ;;
    --requests) requests="$2" ;;
    --tracer) tracer="$2" ;;
    --cookie-storage) cookies="$2" ;;
    *) say "unknown option $1 (see the top of this script)" && exit 2 ;;
    esac
    shift 2
done
command -v valgrind >/dev/null || { say "valgrind is not installed (Debian: apt-get install valgrind)" && exit 2; }

swift build --package-path Benchmarks -c release --product TransportLoad >&2
bin="$(swift build --package-path Benchmarks -c release --show-bin-path)/TransportLoad"
strip --strip-debug -o "$OUT/TransportLoad" "$bin"

if [[ -z "${APIKIT_BENCH_URL:-}" ]]; then
    serve_fixtures bench-nginx "$STATE" "the counts need it"
fi

# count CLIENT N: runs the client under callgrind; prints the run's total instructions.
count() {
    local file="$OUT/callgrind.$1.$body.$tracer.$cookies.$2.out" log="$OUT/valgrind.$1.$body.$tracer.$cookies.$2.log"
    valgrind --tool=callgrind --callgrind-out-file="$file" "$OUT/TransportLoad" \
        --body "$body" --tracer "$tracer" --cookie-storage "$cookies" --clients "$1" --count "$2" >"$log" 2>&1 ||
        { say "callgrind of $1 --count $2 failed: $log" && tail -20 "$log" >&2 && exit 1; }
    awk '/^(summary|totals):/ { print $2; exit }' "$file"
}

IFS=, read -r -a names <<<"$clients"
files=()
for client in "${names[@]}"; do
    say "$client: callgrind with --count 0 and --count $requests"
    count "$client" 0 >/dev/null
    count "$client" "$requests" >/dev/null
    files+=("$client" "$OUT/callgrind.$client.$body.$tracer.$cookies.0.out" "$OUT/callgrind.$client.$body.$tracer.$cookies.$requests.out")
done
echo "TransportLoad --body $body --tracer $tracer --cookie-storage $cookies, $requests requests one at a time, instructions counted by callgrind:"
echo
python3 scripts/transport-counts.py "$requests" "${files[@]}"
