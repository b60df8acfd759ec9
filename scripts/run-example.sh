#!/usr/bin/env bash
# scripts/run-example.sh — the README's example (Examples/QuickStart, APIKitExample) against a local
# httpbin: installs and starts it, runs the example, stops it (scripts/run-examples.sh does the work).
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/run-examples.sh" APIKitExample
