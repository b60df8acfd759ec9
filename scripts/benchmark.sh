#!/usr/bin/env bash
# scripts/benchmark.sh — runs APIKit's benchmarks (the Benchmarks/ package).
#
#   bash scripts/benchmark.sh                        # the whole suite (a few minutes)
#   bash scripts/benchmark.sh --filter 'Encode.*'     # extra arguments go to `swift package benchmark`
#   bash scripts/benchmark.sh --format markdown
#   bash scripts/benchmark.sh baseline update before # then: ... baseline compare before
#
# For the end-to-end benchmarks it starts nginx on a free 127.0.0.1 port,
# serving Benchmarks/Fixtures/, and passes its URL in APIKIT_BENCH_URL. nginx
# is installed with apt-get (package nginx-light) when it is missing and this
# runs as root; otherwise the e2e benchmarks are skipped with a message and the
# others still run. nginx runs as the current user with its config, pid, logs
# and temp files in .build-bench/ (git-ignored), and is stopped on every exit
# path (normal exit, error, Ctrl-C, TERM, HUP; a watchdog stops it if this
# script is killed outright).
#
# Settings (environment):
#   APIKIT_BENCH_URL        use this server instead of starting nginx
#   APIKIT_BENCH_NO_E2E=1   don't start nginx; the e2e benchmarks are skipped
#   APIKIT_BENCH_RUNS=N     run the suite N times (default 1); the summary gives
#                           the median over the runs. Use 3 or more to compare
#                           before/after: on a shared VM one run's timings can be
#                           off by 30% or more, for the APIKit side and the baseline alike.
#   APIKIT_BENCH_SWIFT_FLAGS  extra options for `swift package` itself (before
#                           `benchmark`), e.g. --disable-sandbox on macOS
#
# After a run in the text or markdown format, scripts/benchmark-summary.py
# prints the p50 ratios of each APIKit benchmark to its baselines. The full
# output of each run is kept in .build-bench/run-N.txt (and the last one in
# .build-bench/last-run.txt).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
STATE="$ROOT/.build-bench"
FIXTURES="$ROOT/Benchmarks/Fixtures"
PROBE_PATH="/items.json"

say() { printf 'benchmark.sh: %s\n' "$*" >&2; }

mkdir -p "$STATE"

# ---------------------------------------------------------------------------
# nginx: find / install
# ---------------------------------------------------------------------------

# shellcheck source=servers/nginx.sh
source "$ROOT/scripts/servers/nginx.sh"

# ---------------------------------------------------------------------------
# nginx: start / stop
# ---------------------------------------------------------------------------

NGINX_PID=""
WATCHDOG_PID=""
SCRIPT_PID="$$"

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' && return 0
    fi
    echo $((20000 + RANDOM % 40000))
}

# The status code of GET $PROBE_PATH on 127.0.0.1:$1, or nothing (bash's /dev/tcp: no curl needed).
probe_status() {
    local port="$1" line=""
    (
        exec 3<>"/dev/tcp/127.0.0.1/$port" || exit 1
        printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$PROBE_PATH" >&3
        IFS= read -r -t 2 line <&3 || exit 1
        printf '%s\n' "$line" | cut -d' ' -f2
    ) 2>/dev/null || true
}

write_nginx_config() {
    local port="$1" user_line=""
    if [[ "$(id -u)" -eq 0 ]]; then
        # Workers run as the current user too (root would default them to nobody).
        user_line="user $(id -un) $(id -gn);"
    fi
    mkdir -p "$STATE/tmp"
    # The download benchmark's 1 GB body: a sparse file (zeros that take no disk space).
    truncate -s 1G "$STATE/download-1g.bin"
    cat >"$STATE/nginx.conf" <<EOF
# Written by scripts/benchmark.sh for APIKit's end-to-end benchmarks.
$user_line
daemon off;
master_process on;
worker_processes 1;
pid "$STATE/nginx.pid";
error_log "$STATE/nginx-error.log" warn;

events {
    worker_connections 1024;
}

http {
    access_log off;
    sendfile on;
    tcp_nodelay on;
    keepalive_timeout 75s;
    keepalive_requests 1000000;
    client_body_temp_path "$STATE/tmp/client_body";
    proxy_temp_path "$STATE/tmp/proxy";
    fastcgi_temp_path "$STATE/tmp/fastcgi";
    uwsgi_temp_path "$STATE/tmp/uwsgi";
    scgi_temp_path "$STATE/tmp/scgi";
    types {
        application/json json;
    }
    default_type application/octet-stream;

    server {
        listen 127.0.0.1:$port;
        root "$FIXTURES";
        # Request bodies of any size (the upload benchmark sends 200 MB).
        client_max_body_size 0;
        location / {
            add_header Cache-Control "no-store";
        }
        # The upload benchmark: POST /upload reads the whole body, then answers 200 "ok".
        # A plain "return 200" would answer before the body arrived and the client would stop
        # sending; mirror_request_body makes nginx read the body (into a temp file) before the
        # content phase, where the static handler refuses POST (405), turned into a 200.
        location = /upload {
            mirror /upload-sink;
            mirror_request_body on;
            alias "$FIXTURES/items.json";
            error_page 405 =200 /upload-done;
        }
        # The download benchmark: GET /download-1g serves 1 GB with its Content-Length.
        location = /download-1g {
            alias "$STATE/download-1g.bin";
        }
        location = /upload-sink {
            internal;
            return 204;
        }
        location = /upload-done {
            internal;
            default_type text/plain;
            return 200 "ok\n";
        }
    }
}
EOF
}

stop_nginx() {
    local pid="$NGINX_PID" i
    if [[ -n "$WATCHDOG_PID" ]]; then
        kill "$WATCHDOG_PID" 2>/dev/null || true
        wait "$WATCHDOG_PID" 2>/dev/null || true
        WATCHDOG_PID=""
    fi
    [[ -n "$pid" ]] || return 0
    NGINX_PID=""
    # TERM: fast shutdown; the master stops its workers, then exits.
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    # nginx was started in a process group of its own (setsid): whatever is
    # left of it (master and workers) goes now.
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

start_nginx() {
    local nginx="$1" port status i
    for _ in 1 2 3 4 5; do
        port="$(free_port)"
        write_nginx_config "$port"
        : >"$STATE/nginx-error.log"
        rm -f "$STATE/nginx.pid"
        # setsid: a process group of its own, so that Ctrl-C in the terminal
        # reaches only this script (whose trap stops nginx) and the group can
        # be killed as a whole.
        setsid "$nginx" -p "$STATE/" -c "$STATE/nginx.conf" -e "$STATE/nginx-error.log" \
            </dev/null >"$STATE/nginx-console.log" 2>&1 &
        NGINX_PID=$!
        # Watchdog: if this script dies without running its trap (SIGKILL),
        # stop nginx anyway.
        (
            trap '' INT HUP
            while kill -0 "$SCRIPT_PID" 2>/dev/null && kill -0 "$NGINX_PID" 2>/dev/null; do sleep 1; done
            if kill -0 "$NGINX_PID" 2>/dev/null; then
                kill -TERM "$NGINX_PID" 2>/dev/null || true
                sleep 3
                kill -KILL -- "-$NGINX_PID" 2>/dev/null || true
            fi
        ) </dev/null >/dev/null 2>&1 &
        WATCHDOG_PID=$!

        for ((i = 0; i < 100; i++)); do
            if ! kill -0 "$NGINX_PID" 2>/dev/null; then break; fi
            status="$(probe_status "$port")"
            if [[ "$status" == "200" ]]; then
                APIKIT_BENCH_URL="http://127.0.0.1:$port"
                export APIKIT_BENCH_URL
                return 0
            fi
            sleep 0.1
        done
        if grep -qi 'address already in use' "$STATE/nginx-error.log" "$STATE/nginx-console.log" 2>/dev/null; then
            say "port $port was taken meanwhile; trying another"
            stop_nginx
            continue
        fi
        say "nginx did not answer GET $PROBE_PATH with 200 on port $port; its log:"
        cat "$STATE/nginx-error.log" "$STATE/nginx-console.log" >&2 || true
        stop_nginx
        return 1
    done
    return 1
}

# shellcheck disable=SC2317  # (invoked by the traps)
on_exit() {
    local rc=$?
    stop_nginx
    exit "$rc"
}
# shellcheck disable=SC2317
on_signal() {
    local sig="$1"
    stop_nginx
    trap - "$sig" EXIT
    kill -s "$sig" "$$"
}
trap on_exit EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

# The loopback server must never be reached through a proxy.
for v in no_proxy NO_PROXY; do
    case ",${!v:-}," in
        *,127.0.0.1,*) ;;
        *) export "$v=127.0.0.1,localhost${!v:+,${!v}}" ;;
    esac
done

if [[ -n "${APIKIT_BENCH_URL:-}" ]]; then
    say "using the server at APIKIT_BENCH_URL=$APIKIT_BENCH_URL for the end-to-end benchmarks"
elif [[ "${APIKIT_BENCH_NO_E2E:-}" == "1" ]]; then
    say "APIKIT_BENCH_NO_E2E=1: skipping the end-to-end benchmarks"
else
    nginx_bin="$(nginx_find || true)"
    if [[ -z "$nginx_bin" ]] && nginx_install "$STATE/apt.log" "skipping the end-to-end benchmarks (or set APIKIT_BENCH_URL)"; then
        nginx_bin="$(nginx_find || true)"
    fi
    if [[ -n "$nginx_bin" ]]; then
        if start_nginx "$nginx_bin"; then
            say "nginx (pid $NGINX_PID) serving Benchmarks/Fixtures at $APIKIT_BENCH_URL (logs: .build-bench/)"
        else
            say "could not start nginx: skipping the end-to-end benchmarks"
        fi
    fi
fi

# Other work on the machine skews the numbers. Before the run, say how busy it
# is (over one second); after it, how much CPU other processes used meanwhile:
# all CPU time spent on the machine (/proc/stat) less what this script and its
# children (the build, the benchmarks, nginx) used (`times`).
busy_cpu_seconds() {
    local hz
    hz="$(getconf CLK_TCK 2>/dev/null || echo 100)"
    awk -v hz="$hz" '$1 == "cpu" { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8) / hz; exit }' /proc/stat 2>/dev/null || true
}
# Sets OWN_CPU: CPU seconds of this shell and its (waited-for) children.
# `times` must run in this shell itself, not in a $(...) subshell.
OWN_CPU=""
own_cpu_seconds() {
    times >"$STATE/times.txt"
    # shell user/sys, then children user/sys, as XmY.YYYs.
    OWN_CPU="$(awk '{ for (i = 1; i <= NF; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] } } END { printf "%.2f\n", t }' "$STATE/times.txt")"
}
busy_before=""
own_before=""
start_time=""
if [[ -r /proc/stat ]]; then
    # One second of what the machine does while this script waits.
    busy_before="$(busy_cpu_seconds)"
    sleep 1
    busy_now="$(busy_cpu_seconds)"
    say "before the run: other processes keep $(awk -v a="$busy_before" -v b="$busy_now" 'BEGIN { printf "%.0f", 100 * (b - a) }')% of one core busy ($(nproc 2>/dev/null || echo '?') cores)"
    if awk -v a="$busy_before" -v b="$busy_now" 'BEGIN { exit !(b - a > 0.2) }'; then
        say "warning: the machine is busy; the timings will be noisy"
    fi
    busy_before="$busy_now"
    own_cpu_seconds
    own_before="$OWN_CPU"
    start_time="$SECONDS"
fi
report_other_load() {
    [[ -n "$busy_before" ]] || return 0
    local busy_after own_after elapsed
    busy_after="$(busy_cpu_seconds)"
    own_cpu_seconds
    own_after="$OWN_CPU"
    elapsed=$((SECONDS - start_time))
    awk -v b0="$busy_before" -v b1="$busy_after" -v o0="$own_before" -v o1="$own_after" -v e="$elapsed" 'BEGIN {
        other = (b1 - b0) - (o1 - o0); if (other < 0) other = 0
        share = e > 0 ? 100 * other / e : 0
        printf "benchmark.sh: during the run (%d s) other processes used %.0f CPU-seconds (%.0f%% of one core)\n", e, other, share
        if (share > 10) print "benchmark.sh: warning: other load during the run: the timings are noisy; trust ratios within a group, and check p0 against p50" 
    }' >&2
}

extra=()
# Progress bars only on a terminal.
if [[ ! -t 1 && " $* " != *" --no-progress "* ]]; then
    extra+=(--no-progress)
fi

# Several runs, for before/after comparisons on a noisy machine: the summary
# then gives the median over the runs. Baseline and threshold operations run
# once, without the summary.
runs="${APIKIT_BENCH_RUNS:-1}"
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    say "APIKIT_BENCH_RUNS must be a positive integer, not '$runs'"
    exit 2
fi
summarize=1
case " $* " in
    *" baseline "* | *" thresholds "* | *" list "* | *" help "*)
        runs=1
        summarize=0 # their output is not a run's tables
        ;;
esac

rc=0
outputs=()
rm -f "$STATE"/run-*.txt
for ((run = 1; run <= runs; run++)); do
    if [[ $runs -gt 1 ]]; then
        say "run $run of $runs"
    fi
    output="$STATE/run-$run.txt"
    outputs+=("$output")
    # --allow-writing-to-package-directory: `baseline update` stores baselines
    # in Benchmarks/.benchmarkBaselines. On macOS the plugin's sandbox would
    # block the e2e benchmarks' loopback connections: set
    # APIKIT_BENCH_SWIFT_FLAGS=--disable-sandbox there (not passed by default:
    # it changes the build flags, so a plain `swift package benchmark` would
    # rebuild everything afterwards).
    # shellcheck disable=SC2086
    swift package --package-path "$ROOT/Benchmarks" --allow-writing-to-package-directory ${APIKIT_BENCH_SWIFT_FLAGS:-} \
        benchmark ${extra[@]+"${extra[@]}"} "$@" | tee "$output" || rc=$?
    cp -f "$output" "$STATE/last-run.txt"
    [[ $rc -eq 0 ]] || break
done

stop_nginx
report_other_load

if [[ $rc -eq 0 && $summarize -eq 1 ]] && command -v python3 >/dev/null 2>&1; then
    python3 "$ROOT/scripts/benchmark-summary.py" "${outputs[@]}" || true
fi
exit "$rc"
