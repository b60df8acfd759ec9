#!/usr/bin/env bash
# scripts/fuzz.sh — runs APIKit's libFuzzer targets (Tests/Fuzz/*Target.swift) for a bounded time.
#
#   bash scripts/fuzz.sh        # each target for 30 s (scripts/test.sh: APIKIT_FUZZ_SECONDS, 20)
#   bash scripts/fuzz.sh 300    # each target for 300 s
#
# Each target is compiled with Sources/APIKitParsers into one module (so it reaches internal code)
# with `swiftc -sanitize=fuzzer,address` into .build-fuzz/, and runs from its corpus there plus the
# inputs kept in Tests/Fuzz/Regressions/NAME/. A crashing input is copied into that folder —
# commit it, and every later run replays it — and the script exits 1.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
OUT="$ROOT/.build-fuzz"
say() { printf 'fuzz.sh: %s\n' "$*" >&2; }

status=0
for target in "$ROOT"/Tests/Fuzz/*Target.swift; do
    name="$(basename "$target" .swift)"
    regressions="$ROOT/Tests/Fuzz/Regressions/$name"
    mkdir -p "$OUT/corpus-$name" "$OUT/crashes-$name" "$regressions"
    say "building $name"
    # ld.gold warns about ASan's local symbols: noise.
    if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name APIKitParsers \
        "$ROOT"/Sources/APIKitParsers/*.swift "$target" -o "$OUT/$name" 2>&1 |
        { grep -v -e "Cannot export local symbol" -e '^$' >&2 || true; }; then
        say "could not build $name" && exit 1
    fi
    say "running $name for ${1:-30} s"
    if "$OUT/$name" -max_total_time="${1:-30}" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$OUT/crashes-$name/" \
        "$OUT/corpus-$name" "$regressions" >"$OUT/$name.log" 2>&1; then
        say "$name: $(grep -o 'Done [0-9]* runs' "$OUT/$name.log" | tail -1), no crash"
    else
        status=1
        tail -30 "$OUT/$name.log" >&2
        say "$name FAILED (log: $OUT/$name.log); its crashing inputs, to commit:"
        cp -v "$OUT/crashes-$name"/* "$regressions/" >&2 || true
    fi
done
exit "$status"
