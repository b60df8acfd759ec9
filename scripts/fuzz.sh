#!/usr/bin/env bash
# scripts/fuzz.sh — runs APIKit's libFuzzer targets (Tests/Fuzz/*Target.swift) for a bounded time.
#
#   bash scripts/fuzz.sh        # each target for 30 s (scripts/test.sh: APIKIT_FUZZ_SECONDS, 20)
#   bash scripts/fuzz.sh 300    # each target for 300 s
#
# Each target is compiled into the module it tests, so that it reaches internal code, with
# `swiftc -sanitize=fuzzer,address` into .build-fuzz/: the parser targets with Sources/APIKitParsers,
# FieldPlanTarget with Sources/APIKit and Tests/Fuzz/ReadingCorpus.swift (APIKitParsers built first,
# as a module it imports). Each runs from its corpus there plus the inputs kept in
# Tests/Fuzz/Regressions/NAME/. A crashing input is copied into that folder — commit it, and every
# later run replays it — and the script exits 1. A target whose sources, flags and compiler are
# those of its last build is not built again.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
OUT="$ROOT/.build-fuzz"
say() { printf 'fuzz.sh: %s\n' "$*" >&2; }

# The language mode and features of Package.swift.
SWIFT_FLAGS=("-sanitize=fuzzer,address" -parse-as-library -O -swift-version 6
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault)

# ld.gold warns about ASan's local symbols: noise.
quiet() { grep -v -e "Cannot export local symbol" -e '^$' >&2 || true; }

# build TARGET NAME: the target and the module it tests, into $OUT/NAME.
build() {
    case "$2" in
    FieldPlanTarget)
        local sources
        mapfile -d '' sources < <(find "$ROOT/Sources/APIKit" -name '*.swift' -print0 | sort -z)
        swiftc "${SWIFT_FLAGS[@]}" -wmo -module-name APIKitParsers -emit-module \
            -emit-module-path "$OUT/modules/APIKitParsers.swiftmodule" -c "$ROOT"/Sources/APIKitParsers/*.swift \
            -o "$OUT/APIKitParsers.o" 2>&1 | quiet
        swiftc "${SWIFT_FLAGS[@]}" -D APIKIT_FUZZ -module-name APIKit -I "$OUT/modules" "${sources[@]}" \
            "$ROOT/Tests/Fuzz/ReadingCorpus.swift" "$1" "$OUT/APIKitParsers.o" -o "$OUT/$2" 2>&1 | quiet
        ;;
    *)
        swiftc "${SWIFT_FLAGS[@]}" -module-name APIKitParsers "$ROOT"/Sources/APIKitParsers/*.swift "$1" \
            -o "$OUT/$2" 2>&1 | quiet
        ;;
    esac
}

# inputs TARGET NAME: a digest of what build() compiles for it (the sources, the flags, the
# compiler): a binary built from the same inputs is reused, so a second pass builds nothing.
inputs() {
    {
        printf '%s\n' "${SWIFT_FLAGS[@]}" "$(swiftc --version 2>&1)"
        cat "${BASH_SOURCE[0]}"
        if [[ "$2" == FieldPlanTarget ]]; then
            find "$ROOT/Sources/APIKit" -name '*.swift' -print0 | sort -z | xargs -0 cat
            cat "$ROOT/Tests/Fuzz/ReadingCorpus.swift"
        fi
        cat "$ROOT"/Sources/APIKitParsers/*.swift "$1"
    } | sha256sum | cut -d' ' -f1
}

status=0
mkdir -p "$OUT/modules"
for target in "$ROOT"/Tests/Fuzz/*Target.swift; do
    name="$(basename "$target" .swift)"
    regressions="$ROOT/Tests/Fuzz/Regressions/$name"
    mkdir -p "$OUT/corpus-$name" "$OUT/crashes-$name" "$regressions"
    digest="$(inputs "$target" "$name")"
    if [[ -x "$OUT/$name" && "$(cat "$OUT/$name.inputs" 2>/dev/null)" == "$digest" ]]; then
        say "$name: built before from the same sources and flags"
    else
        say "building $name"
        rm -f "$OUT/$name" "$OUT/$name.inputs"
        if ! build "$target" "$name" || [[ ! -x "$OUT/$name" ]]; then
            say "could not build $name" && exit 1
        fi
        echo "$digest" >"$OUT/$name.inputs"
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
