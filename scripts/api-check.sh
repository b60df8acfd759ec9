#!/usr/bin/env bash
# scripts/api-check.sh — compares the public API of APIKit and APIKitParsers with the committed
# baseline in api-baseline/, so a change that breaks source compatibility is seen in CI.
#
#   bash scripts/api-check.sh            # build, then fail on any breaking change (CI runs this)
#   bash scripts/api-check.sh --update   # build, then write the current API as the new baseline
#
# The toolchain's swift-api-digester dumps each module's public declarations (built by
# `swift build` into .build/debug/Modules) and diagnoses them against the baseline: a removed
# or renamed declaration, a changed signature, a dropped conformance or a narrowed type is an
# "API breakage" error and the script exits 1. Additions are not breakages: they pass, and
# `--update` records them when a release is cut or an intended change lands. An intended break
# is made visible the same way: run `--update` and commit the new baseline with the change, so
# the diff of api-baseline/ shows it in review.
#
# APIKIT_API_BUILD_COMMAND replaces the build step (default `swift build`), for a caller that
# has built the modules already.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
MODULES=(APIKit APIKitParsers)
BASELINE_DIR="$ROOT/api-baseline"

eval "${APIKIT_API_BUILD_COMMAND:-swift build --target APIKit}"
MODULES_DIR="$(swift build --show-bin-path)/Modules"

digester() {
    swift-api-digester -I "$MODULES_DIR" -avoid-location -avoid-tool-args "$@"
}

if [[ "${1:-}" == "--update" ]]; then
    mkdir -p "$BASELINE_DIR"
    for module in "${MODULES[@]}"; do
        digester -dump-sdk -abort-on-module-fail -module "$module" -o "$BASELINE_DIR/$module.json"
        echo "api-check.sh: wrote api-baseline/$module.json" >&2
    done
    exit 0
fi

rc=0
for module in "${MODULES[@]}"; do
    if [[ ! -f "$BASELINE_DIR/$module.json" ]]; then
        echo "api-check.sh: no baseline for $module (run: bash scripts/api-check.sh --update)" >&2
        exit 1
    fi
    if digester -diagnose-sdk -compiler-style-diags -module "$module" \
        -baseline-path "$BASELINE_DIR/$module.json"; then
        echo "api-check.sh: $module has no breaking change against api-baseline/$module.json" >&2
    else
        echo "api-check.sh: $module breaks its public API (see the errors above)" >&2
        rc=1
    fi
done
exit "$rc"
