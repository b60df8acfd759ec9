#!/usr/bin/env bash
# scripts/run-examples.sh — build the example programs and run each against a local httpbin.
#
#   bash scripts/run-examples.sh                          # every example
#   bash scripts/run-examples.sh GiphyExample AppAPIExample   # some of them
#
# The examples (Examples/, executable targets of Package.swift): APIKitExample (QuickStart),
# GiphyExample, CryptoAssetsExample, AppAPIExample, MeteorUploadExample. Each checks what it
# demonstrates against what httpbin echoes and exits non-zero when it did not happen. They run one
# after another (all of them, also after a failure, each bounded by APIKIT_EXAMPLE_TIMEOUT seconds,
# default 300); the script prints which failed and exits 1 if any did.
#
# When APIKIT_HTTPBIN_URL is set and the server answers (scripts/test.sh runs this script with its
# httpbin), that server is used. Otherwise the pinned httpbin is installed into .venv when needed,
# started on a free 127.0.0.1 port, and stopped afterwards (also on failure or Ctrl-C), as by
# scripts/run-example.sh.
#
# The programs are built once with `swift build` (debug, the default scratch path .build).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"

ALL_EXAMPLES=(APIKitExample GiphyExample CryptoAssetsExample AppAPIExample MeteorUploadExample)

examples=("$@")
if [[ ${#examples[@]} -eq 0 ]]; then
    examples=("${ALL_EXAMPLES[@]}")
fi
for name in "${examples[@]}"; do
    if [[ " ${ALL_EXAMPLES[*]} " != *" $name "* ]]; then
        echo "run-examples.sh: unknown example '$name'; the examples are: ${ALL_EXAMPLES[*]}" >&2
        exit 2
    fi
done

# Use the caller's httpbin when it answers; start our own otherwise.
httpbin_answers() {
    "${APIKIT_PYTHON:-python3}" - "$1" <<'PY' >/dev/null 2>&1
import sys, urllib.request
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
with opener.open(sys.argv[1] + "/get", timeout=5) as response:
    sys.exit(0 if response.status == 200 else 1)
PY
}
if [[ -n "${APIKIT_HTTPBIN_URL:-}" ]] && httpbin_answers "$APIKIT_HTTPBIN_URL"; then
    echo "run-examples.sh: using the httpbin at $APIKIT_HTTPBIN_URL" >&2
else
    # shellcheck source=scripts/httpbin.sh
    source "$ROOT/scripts/httpbin.sh"
    httpbin_install
    httpbin_start
    echo "run-examples.sh: httpbin running at $APIKIT_HTTPBIN_URL (log: .build-httpbin/)" >&2
fi
export APIKIT_HTTPBIN_URL

swift build
bin="$(swift build --show-bin-path)"

failed=()
for name in "${examples[@]}"; do
    echo "run-examples.sh: ── $name ──" >&2
    started=$SECONDS
    rc=0
    if command -v timeout >/dev/null 2>&1; then
        timeout "${APIKIT_EXAMPLE_TIMEOUT:-300}" "$bin/$name" || rc=$?
    else
        "$bin/$name" || rc=$?
    fi
    echo "run-examples.sh: $name exited $rc after $((SECONDS - started)) s" >&2
    [[ "$rc" -eq 0 ]] || failed+=("$name")
done

if declare -F httpbin_stop >/dev/null; then httpbin_stop; fi

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "run-examples.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "run-examples.sh: all ${#examples[@]} examples passed" >&2
