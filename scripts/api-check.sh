#!/usr/bin/env bash
# scripts/api-check.sh — fails when the public API of APIKit or APIKitParsers breaks source
# compatibility with the committed baseline in api-baseline/ (scripts/test.sh runs it).
#
#   bash scripts/api-check.sh            # build, then exit 1 on a removed, renamed or changed declaration
#   bash scripts/api-check.sh --update   # build, then record the current API as the baseline
#
# No version has been tagged yet, so the baseline is a file: the toolchain's swift-api-digester
# dumps each module's public declarations and diagnoses them against it. Additions pass; an
# intended break is recorded with --update and committed with the change, so review sees it.
# Once a release is tagged, the standard command takes over: `swift package
# diagnose-api-breaking-changes <latest tag>` (it builds the tag itself), and api-baseline/ and
# the digester calls below can go (see "Releasing" in CHANGELOG.md).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

if tag="$(git describe --tags --abbrev=0 2>/dev/null)" && [[ "${1:-}" != "--update" ]]; then
    exec swift package diagnose-api-breaking-changes "$tag" --products APIKit APIKitParsers
fi

swift build --target APIKit
digester() { swift-api-digester -I "$(swift build --show-bin-path)/Modules" -avoid-location -avoid-tool-args "$@"; }

rc=0
for module in APIKit APIKitParsers; do
    baseline="api-baseline/$module.json"
    if [[ "${1:-}" == "--update" ]]; then
        digester -dump-sdk -abort-on-module-fail -module "$module" -o "$baseline"
        echo "api-check.sh: wrote $baseline" >&2
    elif digester -diagnose-sdk -compiler-style-diags -module "$module" -baseline-path "$baseline"; then
        echo "api-check.sh: $module has no breaking change against $baseline" >&2
    else
        echo "api-check.sh: $module breaks its public API against $baseline (see above)" >&2
        rc=1
    fi
done
exit "$rc"
