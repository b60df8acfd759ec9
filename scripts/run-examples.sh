#!/usr/bin/env bash
# scripts/run-examples.sh — builds the example programs (Examples/) and runs each against httpbin.
#
#   bash scripts/run-examples.sh                              # every example
#   bash scripts/run-examples.sh GiphyExample AppAPIExample   # some of them
#
# Each program checks what it demonstrates against what httpbin echoes and exits non-zero when it
# did not happen. They run one after another, all of them even after a failure, each for at most
# APIKIT_EXAMPLE_TIMEOUT seconds [300]; the script names those that failed and then exits 1.
# Uses the httpbin at APIKIT_HTTPBIN_URL when it is set (scripts/test.sh sets it); otherwise
# installs and starts one (scripts/servers/serve.sh) and stops it afterwards.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
ALL=(APIKitExample GiphyExample CryptoAssetsExample AppAPIExample MeteorUploadExample)
examples=("${@:-${ALL[@]}}")

for name in "${examples[@]}"; do
    if [[ " ${ALL[*]} " != *" $name "* ]]; then
        echo "run-examples.sh: no example '$name'; the examples: ${ALL[*]}" >&2
        exit 2
    fi
    swift build --product "$name"
done
if [[ -z "${APIKIT_HTTPBIN_URL:-}" ]]; then
    # shellcheck source=scripts/servers/serve.sh
    source scripts/servers/serve.sh
    serve_install
    serve httpbin
fi
echo "run-examples.sh: httpbin at $APIKIT_HTTPBIN_URL" >&2

bin="$(swift build --show-bin-path)"
limit=()
if command -v timeout >/dev/null; then limit=(timeout "${APIKIT_EXAMPLE_TIMEOUT:-300}"); fi
failed=()
for name in "${examples[@]}"; do
    echo "run-examples.sh: ── $name ──" >&2
    rc=0
    ${limit[@]+"${limit[@]}"} "$bin/$name" || rc=$?
    echo "run-examples.sh: $name exited $rc" >&2
    if ((rc != 0)); then failed+=("$name"); fi
done
if ((${#failed[@]})); then
    echo "run-examples.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "run-examples.sh: all ${#examples[@]} examples passed" >&2
