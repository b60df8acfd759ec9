#!/usr/bin/env bash
# scripts/fuzz.sh — runs APIKit's libFuzzer targets for a bounded time.
#
#   bash scripts/fuzz.sh            # each target for 30 s
#   bash scripts/fuzz.sh 300        # each target for 300 s
#
# Targets live in Tests/Fuzz/ and are compiled together with Sources/APIKitParsers into
# one module (so they reach internal code) with `swiftc -sanitize=fuzzer,address`, into
# .build-fuzz/ (git-ignored). Each run starts from its corpus in .build-fuzz/corpus-NAME
# plus the inputs kept in Tests/Fuzz/Regressions/NAME/. A crashing input is copied into
# Tests/Fuzz/Regressions/NAME/ — commit it, and it is replayed by every later run — and the
# script exits non-zero. Prints the number of executions per target.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
SECONDS_PER_TARGET="${1:-30}"
OUT="$ROOT/.build-fuzz"
mkdir -p "$OUT"
say() { printf 'fuzz.sh: %s\n' "$*" >&2; }

status=0
for target in "$ROOT"/Tests/Fuzz/*Target.swift; do
    name="$(basename "$target" .swift)"
    binary="$OUT/$name"
    say "building $name"
    # ld.gold warns about ASan's local symbols; those lines are noise.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name APIKitParsers \
        "$ROOT"/Sources/APIKitParsers/*.swift "$target" -o "$binary" 2>&1 \
        | grep -v -e "Cannot export local symbol" -e '^$' >&2 || true
    [[ -x "$binary" ]] || { say "could not build $name"; exit 1; }
    corpus="$OUT/corpus-$name"
    regressions="$ROOT/Tests/Fuzz/Regressions/$name"
    mkdir -p "$corpus" "$regressions" "$OUT/crashes-$name"
    say "running $name for ${SECONDS_PER_TARGET}s"
    log="$OUT/$name.log"
    if "$binary" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$OUT/crashes-$name/" "$corpus" "$regressions" > "$log" 2>&1; then
        runs="$(grep -o 'Done [0-9]* runs' "$log" | tail -1 || true)"
        say "$name: ${runs:-done}, no crash"
    else
        status=1
        say "$name FAILED; log: $log"
        tail -30 "$log" >&2
        for crash in "$OUT/crashes-$name"/*; do
            [[ -f "$crash" ]] || continue
            cp "$crash" "$regressions/"
            say "kept $(basename "$crash") in Tests/Fuzz/Regressions/$name/ — commit it"
        done
    fi
done
exit "$status"
