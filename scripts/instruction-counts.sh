#!/usr/bin/env bash
# scripts/instruction-counts.sh — instructions per request of the encode benchmarks' requests, counted by
# callgrind: exact and free of the machine's noise, where wall-clock ratios on
# a shared 2-core VM move by several percent from run to run.
#
#   bash scripts/instruction-counts.sh                  # every case
#   bash scripts/instruction-counts.sh apikit-10 minimal-10
#
# Each case runs 1000 and 2000 times; the difference over 1000 is the cost of one
# request, without start-up and the first request (field plans, lazy statics).
# SWIFT_DETERMINISTIC_HASHING=1 makes dictionary probing, and so the counts,
# the same on every run. Installs valgrind with apt-get when it is missing and
# this runs as root.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PACKAGE="$ROOT/Benchmarks/InstructionCounts"
# shellcheck source=scripts/servers/serve.sh
source "$ROOT/scripts/servers/serve.sh"
command -v valgrind >/dev/null || apt_install valgrind "it counts the instructions"

swift build --package-path "$PACKAGE" -c release >&2
BINARY="$(swift build --package-path "$PACKAGE" -c release --show-bin-path)/InstructionCounts"

if (($# == 0)); then
    set -- apikit-1 minimal-1 apikit-10 minimal-10 typical-10 apikit-30-nil minimal-30-nil apikit-30 minimal-30 \
        apikit-mixed minimal-mixed apikit-declared minimal-declared
fi

count() {
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BINARY" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# The APIKit and hand-written requests must be the same request, or the counts compare nothing.
"$BINARY" verify 0 >&2

printf '| case | instructions per request |\n| --- | --: |\n'
for name; do
    once=$(count "$name" 1000)
    twice=$(count "$name" 2000)
    printf '| %s | %s |\n' "$name" "$(( (twice - once) / 1000 ))"
done
