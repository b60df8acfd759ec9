#!/usr/bin/env bash
# scripts/format.sh — formats or lints the Swift sources with the toolchain's swift-format
# and the repository's .swift-format (4 spaces, 120 columns).
#
#   bash scripts/format.sh          # rewrite the files in place
#   bash scripts/format.sh --lint   # change nothing; exit 1 on any finding (CI runs this)
set -euo pipefail
# Transports/AsyncHTTPClient/Tests also holds symlinks to Tests/APIKitIntegrationTests and
# Tests/APIKitTestSupport (its test target compiles them too); only its own folder is listed, so
# that those files are formatted once.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
PATHS=(Sources Tests Examples Package.swift Benchmarks/Benchmarks Benchmarks/Package.swift Benchmarks/InstructionCounts/Sources Benchmarks/InstructionCounts/Package.swift Transports/AsyncHTTPClient/Sources Transports/AsyncHTTPClient/Tests/APIKitAsyncHTTPClientTests Transports/AsyncHTTPClient/Package.swift)

if [[ "${1:-}" == "--lint" ]]; then
    swift format lint --strict --recursive --parallel "${PATHS[@]}"
    echo "format.sh: lint clean" >&2
else
    swift format format --in-place --recursive --parallel "${PATHS[@]}"
fi
