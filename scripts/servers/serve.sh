# shellcheck shell=bash
#
# scripts/servers/serve.sh — the real servers APIKit's tests, examples and benchmarks talk to:
# install them, start them on free 127.0.0.1 ports, wait until they answer, stop them on every
# exit path. A library: `source` it (scripts/test.sh does); safe under `set -euo pipefail`.
#
#   serve_install            .venv with scripts/servers/requirements.txt (pinned), redone only when
#                            that file or the python changes
#   serve NAME...            starts servers of the table below and exports their URLs
#   serve_start NAME VAR HEALTH COMMAND...
#                            runs COMMAND ("{port}" becomes a free port) in a process group of
#                            its own that the kernel TERMs if this shell dies; waits until
#                            GET /HEALTH answers (any status), then exports VAR=http://127.0.0.1:PORT
#   serve_stop               stops every server started here (also on EXIT, INT, TERM and HUP)
#   serve_nginx WHY          prints nginx's path; installs nginx-light with apt-get when missing
#   apt_install PACKAGE WHY  apt-get install, when root (else says WHY it is needed and fails)
#
# Environment: APIKIT_PYTHON, the python that makes the venv [python3];
# APIKIT_SERVER_START_TIMEOUT, seconds a server has to answer [60].
# Files (git-ignored): .venv/, and .build-servers/ (NAME.log per server, pip.log, apt logs).

SERVE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
SERVE_STATE="$SERVE_ROOT/.build-servers"
VENV="$SERVE_ROOT/.venv"
_SERVE_PIDS=()
# Never through a proxy: libcurl, URLSession and python read these.
export no_proxy="127.0.0.1,localhost${no_proxy:+,$no_proxy}" NO_PROXY="127.0.0.1,localhost${NO_PROXY:+,$NO_PROXY}"

# The servers `serve` knows: NAME → URL variable, health path, command.
_serve_table() {
    case "$1" in
        httpbin) spec=(APIKIT_HTTPBIN_URL get "$VENV/bin/gunicorn" --worker-class gthread --workers 2 --threads 16
            --bind '127.0.0.1:{port}' --keep-alive 15 --timeout 120 --graceful-timeout 5 --no-control-socket
            --chdir "$SERVE_STATE" --access-logfile - httpbin:app) ;;
        fault) spec=(APIKIT_FAULT_URL ok "$VENV/bin/python" "$SERVE_ROOT/scripts/servers/faultserver.py" '{port}') ;;
        length) spec=(APIKIT_LENGTH_URL "" "$VENV/bin/python" "$SERVE_ROOT/scripts/servers/length_server.py" '{port}') ;;
        moto) spec=(APIKIT_S3_URL "" "$VENV/bin/moto_server" -H 127.0.0.1 -p '{port}') ;;
        fastapi) spec=(APIKIT_FASTAPI_URL status/200 "$VENV/bin/uvicorn" --app-dir "$SERVE_ROOT/scripts/servers"
            fastapi_app:app --host 127.0.0.1 --port '{port}') ;;
        *) echo "serve: no server named '$1'" >&2 && return 1 ;;
    esac
}

# In a subshell, so that the lock (one install at a time per checkout) ends with it.
serve_install() (
    local py="${APIKIT_PYTHON:-python3}" requirements="$SERVE_ROOT/scripts/servers/requirements.txt" want
    mkdir -p "$SERVE_STATE"
    want="$("$py" -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest(),
        sys.version.split()[0])' "$requirements")" || { echo "serve: '$py' does not run (set APIKIT_PYTHON)" >&2; return 1; }
    if command -v flock >/dev/null; then exec 9>"$SERVE_STATE/install.lock" && flock 9; fi
    if [[ "$(cat "$VENV/.apikit-stamp" 2>/dev/null)" == "$want" ]] && "$VENV/bin/python" -c '' 2>/dev/null; then
        return 0
    fi
    echo "serve: installing the pinned test servers into .venv (log: .build-servers/pip.log)" >&2
    if ! "$VENV/bin/python" -c '' 2>/dev/null; then
        rm -rf "$VENV"
        "$py" -m venv "$VENV" >"$SERVE_STATE/pip.log" 2>&1 ||
            { cat "$SERVE_STATE/pip.log" >&2; echo "serve: '$py -m venv' failed (Debian: apt-get install python3-venv)" >&2; return 1; }
    fi
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install --quiet -r "$requirements" </dev/null \
        >"$SERVE_STATE/pip.log" 2>&1 || { cat "$SERVE_STATE/pip.log" >&2; echo "serve: pip install failed" >&2; return 1; }
    echo "$want" >"$VENV/.apikit-stamp"
)

serve() {
    local name spec
    for name; do
        _serve_table "$name" && serve_start "$name" "${spec[@]}" || return 1
    done
}

# setsid (so a Ctrl-C reaches the traps first and stopping takes the whole group) and
# PR_SET_PDEATHSIG (so the server dies with this shell even on SIGKILL; Linux only), then exec.
_SERVE_LAUNCHER='import ctypes, os, signal, sys
os.setsid()
try: ctypes.CDLL(None).prctl(1, int(signal.SIGTERM))
except Exception: pass
os.execvp(sys.argv[1], sys.argv[1:])'

serve_free_port() {
    "${APIKIT_PYTHON:-python3}" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Whether something answers HTTP on 127.0.0.1:PORT/PATH (bash's /dev/tcp, no proxy involved).
_serve_answers() (
    exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /%s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3 &&
        IFS= read -r -t 5 line <&3 && [[ "$line" == HTTP/* ]]
) 2>/dev/null

serve_start() {
    local name="$1" var="$2" health="$3" attempt port pid i log="$SERVE_STATE/$1.log"
    shift 3
    mkdir -p "$SERVE_STATE"
    if ((${#_SERVE_PIDS[@]} == 0)); then serve_trap; fi
    for attempt in 1 2 3; do
        port="$(serve_free_port)"
        "${APIKIT_PYTHON:-python3}" -c "$_SERVE_LAUNCHER" "${@//\{port\}/$port}" </dev/null >"$log" 2>&1 &
        pid=$!
        _SERVE_PIDS+=("$pid")
        for ((i = 0; i < ${APIKIT_SERVER_START_TIMEOUT:-60} * 10; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            if _serve_answers "$port" "$health"; then
                export "$var=http://127.0.0.1:$port"
                return 0
            fi
            sleep 0.1
        done
        _serve_kill "$pid"
        unset '_SERVE_PIDS[-1]'
        # Another process may have taken the port between the pick and the bind: pick again.
        if ((attempt < 3)) && grep -qi 'address already in use' "$log"; then continue; fi
        echo "serve: $name did not answer on 127.0.0.1:$port; its log ($log):" >&2
        cat "$log" >&2
        return 1
    done
}

# TERM the server's process group, KILL what is left after 5 s.
_serve_kill() {
    local i
    kill -TERM -- "-$1" 2>/dev/null || kill -TERM "$1" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL -- "-$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

serve_stop() {
    local pid
    for pid in ${_SERVE_PIDS[@]+"${_SERVE_PIDS[@]}"}; do _serve_kill "$pid"; done
    _SERVE_PIDS=()
}

# Stop the servers however the shell ends; after a signal, die by it so the caller sees how.
serve_trap() {
    local sig
    trap 'serve_stop' EXIT
    for sig in INT TERM HUP; do
        # shellcheck disable=SC2064 # $sig is meant to expand now
        trap "serve_stop; trap - $sig EXIT; kill -s $sig \$\$" "$sig"
    done
}

apt_install() {
    local log="$SERVE_STATE/apt-$1.log" rc=0 policy=""
    if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
        echo "serve: $1 is missing and only root with apt-get installs it here: $2" >&2
        return 1
    fi
    mkdir -p "$SERVE_STATE"
    echo "serve: installing $1 with apt-get (log: $log)" >&2
    # policy-rc.d exit 101: the package must not start a system service (nginx on port 80).
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && policy=1
    fi
    local -x DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -q --no-install-recommends "$1" || { apt-get update -q &&
        apt-get install -y -q --no-install-recommends "$1"; }; } </dev/null >"$log" 2>&1 || rc=$?
    if [[ -n "$policy" ]]; then rm -f /usr/sbin/policy-rc.d; fi
    if ((rc != 0)); then tail -n 20 "$log" >&2; fi
    return "$rc"
}

serve_nginx() {
    local path
    for path in "$(command -v nginx || true)" /usr/sbin/nginx /usr/local/sbin/nginx; do
        if [[ -x "$path" ]]; then echo "$path" && return 0; fi
    done
    apt_install nginx-light "$1" && echo /usr/sbin/nginx
}

# serve_fixtures NAME STATE WHY: nginx serving Benchmarks/Fixtures (items.json) as NAME, its state
# in STATE, its URL exported as APIKIT_BENCH_URL; fails, saying WHY nginx is needed, without one.
serve_fixtures() {
    local nginx
    nginx="$(serve_nginx "$3")" || return 1
    serve_start "$1" APIKIT_BENCH_URL items.json bash "$SERVE_ROOT/scripts/servers/nginx.sh" "$nginx" "$2" files '{port}'
}
