#!/usr/bin/env bash
# scripts/busy-machine.sh — the full command, from fresh clones, on a machine kept busy.
#
#   bash scripts/busy-machine.sh [RUNS]             # RUNS passes of `.ci/run` in a row [5]; stops at the first failure
#   bash scripts/busy-machine.sh --quick [RUNS]     # `bash scripts/test.sh --quick` instead
#   bash scripts/busy-machine.sh --no-stress [RUNS] # the same without stress-ng: what a quiet machine takes
#
# Clones this repository's HEAD into a new directory under ${TMPDIR:-/tmp} for each pass (nothing
# built, no virtualenv: as CI starts), and runs `.ci/run` there while `stress-ng --cpu 2` keeps two
# CPU-bound workers running beside it the whole time (Debian's `stress-ng` package). No test is
# retried and no bound is changed for it: a pass is `.ci/run` exiting 0. Each pass's output is kept
# in ${TMPDIR:-/tmp}/apikit-busy-N.log; a passing clone is removed, a failing one kept to inspect.
# Prints one line per pass (commit, seconds, result), then each step's seconds as scripts/test.sh
# reported them (`test.sh: STEP: exit CODE after SECONDS s`), so that a step grown slower shows;
# exits with the first failing pass's code.
set -euo pipefail

command=(bash .ci/run) stress=1
while [[ "${1:-}" == --* ]]; do
  case "$1" in
  --quick) command=(bash scripts/test.sh --quick) ;;
  --no-stress) stress=0 ;;
  *) echo "busy-machine.sh: unknown option $1" >&2 && exit 2 ;;
  esac
  shift
done
runs="${1:-5}"
# As on a fresh machine: the clone starts its own servers. (test.sh reuses servers whose
# APIKIT_*_URL is already set; a pass must not lean on servers that belong to someone else.)
while IFS= read -r variable; do unset "$variable"; done < <(compgen -e | grep '^APIKIT_' || true)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="${TMPDIR:-/tmp}"
commit="$(git -C "$root" rev-parse --short HEAD)"

if ((stress)) && ! command -v stress-ng >/dev/null; then
  echo "busy-machine.sh: stress-ng is not installed (Debian: apt-get install stress-ng)" >&2
  exit 2
fi
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no)" ]]; then
  echo "busy-machine.sh: note: uncommitted changes are not in the clones; testing $commit" >&2
fi

beside="beside stress-ng --cpu 2"
if ((stress)); then
  stress-ng --cpu 2 --timeout 0 --quiet &
  stress_pid=$!
  trap 'kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true' EXIT
else
  beside="without stress-ng"
fi

for ((n = 1; n <= runs; n++)); do
  clone="$(mktemp -d "$tmp/apikit-busy-$n.XXXXXX")"
  log="$tmp/apikit-busy-$n.log"
  git clone --quiet "$root" "$clone"
  git -C "$clone" checkout --quiet "$commit"
  start=$SECONDS
  status=0
  (cd "$clone" && "${command[@]}") >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  # Each step's seconds, as test.sh reported them.
  grep -E '^test\.sh: .*: exit [0-9]+ after [0-9]+ s$' "$log" | sed 's/^test\.sh: /busy-machine.sh:   /' || true
  if ((status == 0)); then
    echo "busy-machine.sh: pass $n/$runs of $commit (${command[*]}): passed after ${elapsed} s (load $load)"
    rm -rf "$clone"
  else
    echo "busy-machine.sh: pass $n/$runs of $commit (${command[*]}): FAILED (exit $status) after ${elapsed} s;" \
      "log $log, clone $clone"
    exit "$status"
  fi
done
echo "busy-machine.sh: $runs passes in a row of $commit (${command[*]}) $beside"
