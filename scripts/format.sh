#!/usr/bin/env bash
# scripts/format.sh — formats or lints the Swift sources with the toolchain's swift-format and the
# repository's .swift-format (4 spaces, 120 columns), and checks the scripts themselves.
#
#   bash scripts/format.sh          # rewrite the Swift files in place
#   bash scripts/format.sh --lint   # change nothing; exit 1 on any finding (scripts/test.sh runs this)
#
# --lint also checks the scripts themselves: `bash -n` on every bash script in scripts/ and .ci/,
# a syntax check of the Python ones, and ShellCheck on the bash ones when it is installed
# (apt-get install shellcheck); when it is not, the last line says that it was not run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# Transports/AsyncHTTPClient/Tests also holds links to Tests/APIKitIntegrationTests and
# Tests/APIKitTestSupport (its test target compiles them too): only its own folder is listed.
PATHS=(Sources Tests Examples Package.swift Benchmarks/Benchmarks Benchmarks/Package.swift
    Benchmarks/InstructionCounts/Sources Benchmarks/InstructionCounts/Package.swift Benchmarks/Sources
    Transports/AsyncHTTPClient/Sources Transports/AsyncHTTPClient/Tests/APIKitAsyncHTTPClientTests
    Transports/AsyncHTTPClient/Package.swift scripts/doc-examples)

if [[ "${1:-}" != "--lint" ]]; then
    exec swift format format --in-place --recursive --parallel "${PATHS[@]}"
fi
swift format lint --strict --recursive --parallel "${PATHS[@]}"
shopt -s nullglob
shells=(scripts/*.sh scripts/servers/*.sh .ci/run)
for script in "${shells[@]}"; do bash -n "$script"; done
python3 -c 'import sys; [compile(open(p).read(), p, "exec") for p in sys.argv[1:]]' scripts/*.py scripts/servers/*.py
if command -v shellcheck >/dev/null; then
    shellcheck --shell=bash --external-sources "${shells[@]}"
    echo "format.sh: lint clean (swift-format, bash -n, Python syntax, shellcheck)" >&2
else
    echo "format.sh: lint clean (swift-format, bash -n, Python syntax); shellcheck NOT run: it is not installed" >&2
fi
