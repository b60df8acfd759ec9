# shellcheck shell=bash
#
# scripts/servers/serve.sh — start a test server in the background, wait until it answers,
# stop it on every exit path. A library: `source` it (scripts/test.sh does); safe under
# `set -euo pipefail`.
#
#   serve_start NAME URL_VAR HEALTH_PATH COMMAND...
#       Runs COMMAND in a process group of its own (so a Ctrl-C aimed at the caller reaches the
#       traps first, and stopping kills the whole server), asking the kernel to SIGTERM it if
#       this shell dies, even by SIGKILL. "{port}" in COMMAND becomes a free 127.0.0.1 port;
#       "{port_file}" a file the server writes the port it bound to. Waits until
#       GET http://127.0.0.1:PORT/HEALTH_PATH answers (any status), then exports
#       URL_VAR=http://127.0.0.1:PORT. Retries twice when the port was taken meanwhile.
#       Log: .build-httpbin/NAME.log. Timeout: APIKIT_SERVER_START_TIMEOUT seconds [60].
#   serve_trap [COMMAND]     on EXIT, INT, TERM and HUP: stop every server, then run COMMAND
#   serve_stop_all           stop every server serve_start started (idempotent)

SERVE_STATE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)/.build-httpbin"
_SERVE_PIDS=()

# setsid + PR_SET_PDEATHSIG, then exec the server (argv[2:]); argv[1] is the parent shell.
# shellcheck disable=SC2016
_SERVE_LAUNCHER='
import ctypes, os, signal, sys
if os.getpgrp() != os.getpid():
    os.setsid()
ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):
    sys.exit(1)  # the parent is already gone
os.execvp(sys.argv[2], sys.argv[2:])
'

# Prints the port and exits 0 once GET /HEALTH answers, exits 1 when PID died, 2 on timeout.
# PORT may be "" when the server writes it to PORT_FILE.
# shellcheck disable=SC2016
_SERVE_WAIT='
import os, sys, time, urllib.error, urllib.request
port, health, pid, timeout, port_file = sys.argv[1:3] + [int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
deadline = time.monotonic() + timeout
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
        with open("/proc/%d/stat" % pid) as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                sys.exit(1)
    except OSError:
        sys.exit(1)
    if not port:
        try:
            with open(port_file) as f:
                port = f.read().strip()
        except OSError:
            pass
    if port:
        try:
            opener.open("http://127.0.0.1:%s/%s" % (port, health), timeout=5).close()
            print(port)
            sys.exit(0)
        except urllib.error.HTTPError:  # any status will do
            print(port)
            sys.exit(0)
        except OSError:
            pass
    time.sleep(0.1)
sys.exit(2)
'

_serve_free_port() {
    "${APIKIT_PYTHON:-python3}" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

serve_start() {
    local name="$1" url_var="$2" health="$3" me="${BASHPID:-$$}" attempt port port_file log pid rc
    shift 3
    mkdir -p "$SERVE_STATE_DIR"
    log="$SERVE_STATE_DIR/$name.log"
    for attempt in 1 2 3; do
        port="$(_serve_free_port)"
        port_file="$SERVE_STATE_DIR/$name.$me.port"
        rm -f "$port_file"
        local -a command=("${@//\{port\}/$port}")
        command=("${command[@]//\{port_file\}/$port_file}")
        [[ "$*" == *"{port_file}"* ]] && port="" || port_file=""
        "${APIKIT_PYTHON:-python3}" -c "$_SERVE_LAUNCHER" "$me" "${command[@]}" </dev/null >"$log" 2>&1 &
        pid=$!
        _SERVE_PIDS+=("$pid")
        rc=0
        port="$("${APIKIT_PYTHON:-python3}" -c "$_SERVE_WAIT" "$port" "${health#/}" "$pid" \
            "${APIKIT_SERVER_START_TIMEOUT:-60}" "$port_file")" || rc=$?
        rm -f "$port_file"
        if [[ $rc -eq 0 ]]; then
            export "$url_var=http://127.0.0.1:$port"
            return 0
        fi
        _serve_stop "$pid"
        unset '_SERVE_PIDS[-1]'
        if [[ $rc -eq 1 && $attempt -lt 3 ]] && grep -qi 'address already in use' "$log"; then
            continue
        fi
        echo "serve: $name did not $([[ $rc -eq 1 ]] && echo start || echo answer within the timeout); its log:" >&2
        cat "$log" >&2
        return 1
    done
}

# TERM the server's process group (its own, see the launcher), KILL it after 5 s.
_serve_stop() {
    local pid="$1" i
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

serve_stop_all() {
    local pid
    for pid in "${_SERVE_PIDS[@]}"; do
        _serve_stop "$pid"
    done
    _SERVE_PIDS=()
}

serve_trap() {
    local extra="${1:-:}" sig
    # shellcheck disable=SC2064
    trap "serve_stop_all; $extra" EXIT
    for sig in INT TERM HUP; do
        # shellcheck disable=SC2064
        trap "serve_stop_all; $extra; trap - $sig EXIT; kill -s $sig \${BASHPID:-\$\$}" "$sig"
    done
}
