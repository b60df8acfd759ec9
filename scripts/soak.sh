#!/usr/bin/env bash
# scripts/soak.sh — the soak run (Tests/Soak, about two minutes; not part of scripts/test.sh).
#
#   bash scripts/soak.sh            # 20,000 requests, 50 in flight
#   bash scripts/soak.sh 5000 20    # count, in flight
#
# Builds the soak program in release mode, starts httpbin and the fault server (scripts/servers/
# serve.sh), runs it against them, stops them, and exits with the program's status.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
# shellcheck source=scripts/servers/serve.sh
source scripts/servers/serve.sh

swift build -c release --product APIKitSoak >&2
serve_install
serve httpbin fault
"$(swift build -c release --show-bin-path)/APIKitSoak" "$@"
