# shellcheck shell=bash
#
# scripts/httpbin.sh — run a real httpbin server on 127.0.0.1 for APIKit's
# integration tests and example. This file is a library: `source` it, don't
# execute it. It is safe under `set -euo pipefail`.
#
#   source scripts/httpbin.sh
#   httpbin_install   # .venv at the repo root, pip-installs
#                     # scripts/httpbin-requirements.txt and the other test
#                     # servers' scripts/servers/requirements.txt (moto, FastAPI,
#                     # uvicorn), in one pip run, only when one of them changed
#   httpbin_start     # gunicorn on a free 127.0.0.1 port; exports
#                     # APIKIT_HTTPBIN_URL=http://127.0.0.1:PORT and sets
#                     # traps so the server is stopped on EXIT/INT/TERM/HUP
#   ...               # run things against "$APIKIT_HTTPBIN_URL"
#   httpbin_stop      # stops gunicorn and its workers (idempotent)
#
# httpbin_start replaces the shell's EXIT trap (and, in a non-interactive
# shell, the INT/TERM/HUP traps). A caller that needs its own EXIT trap should
# set it after httpbin_start and call httpbin_stop from it.
#
# Optional settings (environment):
#   APIKIT_PYTHON                  python used to create the venv [python3]
#   APIKIT_HTTPBIN_WORKERS         gunicorn worker processes       [2]
#   APIKIT_HTTPBIN_THREADS         threads per worker (gthread)    [16]
#   APIKIT_HTTPBIN_START_TIMEOUT   seconds to wait for GET /get    [30]
#
# Files (all git-ignored):
#   .venv/                                 the virtualenv
#   .venv/.apikit-httpbin-stamp            hash of what was installed
#   .build-httpbin/gunicorn.<pid>.log      log of a running server
#   .build-httpbin/gunicorn.log            log of the last stopped server
#   .build-httpbin/pip.log                 output of the last pip install

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
    echo "scripts/httpbin.sh is a library: source it (see scripts/test.sh)" >&2
    exit 2
fi

HTTPBIN_REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
HTTPBIN_VENV="${HTTPBIN_REPO_ROOT}/.venv"
HTTPBIN_STATE_DIR="${HTTPBIN_REPO_ROOT}/.build-httpbin"
HTTPBIN_REQUIREMENTS="${HTTPBIN_REPO_ROOT}/scripts/httpbin-requirements.txt"
HTTPBIN_SERVERS_REQUIREMENTS="${HTTPBIN_REPO_ROOT}/scripts/servers/requirements.txt"

# State of the server started by this shell.
_HTTPBIN_PID="${_HTTPBIN_PID:-}"
_HTTPBIN_OWNER="${_HTTPBIN_OWNER:-}"
_HTTPBIN_LOG="${_HTTPBIN_LOG:-}"

_httpbin_say() { printf 'httpbin: %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------
# install
# ---------------------------------------------------------------------------

_httpbin_sha256() {
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$1" | cut -d' ' -f1
    else
        "${APIKIT_PYTHON:-python3}" -c \
            'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"
    fi
}

# What the stamp must say for .venv to be up to date: the requirements files'
# hashes and the version of the python that creates the venv.
_httpbin_wanted_stamp() {
    local py="${APIKIT_PYTHON:-python3}" hash pyver
    hash="$(_httpbin_sha256 "$HTTPBIN_REQUIREMENTS")+$(_httpbin_sha256 "$HTTPBIN_SERVERS_REQUIREMENTS")" || return 1
    pyver="$("$py" -c 'import sys; print(sys.version.split()[0])')" || return 1
    printf 'requirements-sha256=%s python=%s\n' "$hash" "$pyver"
}

_httpbin_venv_ok() {
    [[ -x "$HTTPBIN_VENV/bin/python" && -x "$HTTPBIN_VENV/bin/gunicorn" ]] &&
        "$HTTPBIN_VENV/bin/python" -c '' >/dev/null 2>&1
}

httpbin_install() {
    local py="${APIKIT_PYTHON:-python3}"
    local stamp="$HTTPBIN_VENV/.apikit-httpbin-stamp"
    local pip_log="$HTTPBIN_STATE_DIR/pip.log"
    local want lock_fd="" rc=0

    if ! command -v "$py" >/dev/null 2>&1; then
        _httpbin_say "error: '$py' not found; install Python 3 (or set APIKIT_PYTHON)"
        return 1
    fi
    mkdir -p "$HTTPBIN_STATE_DIR"
    want="$(_httpbin_wanted_stamp)" || { _httpbin_say "error: cannot hash $HTTPBIN_REQUIREMENTS"; return 1; }

    # Fast path: nothing changed, no network needed.
    if [[ -f "$stamp" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]] && _httpbin_venv_ok; then
        return 0
    fi

    # Serialize concurrent installs from the same checkout.
    if command -v flock >/dev/null 2>&1; then
        exec {lock_fd}>"$HTTPBIN_STATE_DIR/install.lock"
        flock "$lock_fd"
        # Another run may have installed while we waited.
        if [[ -f "$stamp" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]] && _httpbin_venv_ok; then
            exec {lock_fd}>&-
            return 0
        fi
    fi

    _httpbin_install_locked "$py" "$stamp" "$pip_log" "$want" || rc=$?
    if [[ -n "$lock_fd" ]]; then exec {lock_fd}>&-; fi
    return "$rc"
}

_httpbin_install_locked() {
    local py="$1" stamp="$2" pip_log="$3" want="$4"

    # (Re)create the venv when it is missing or its python no longer runs
    # (e.g. the base interpreter was upgraded or removed).
    if [[ ! -x "$HTTPBIN_VENV/bin/python" ]] || ! "$HTTPBIN_VENV/bin/python" -c '' >/dev/null 2>&1; then
        _httpbin_say "creating virtualenv ${HTTPBIN_VENV}"
        rm -rf "$HTTPBIN_VENV"
        if ! "$py" -m venv "$HTTPBIN_VENV" >"$pip_log" 2>&1; then
            cat "$pip_log" >&2
            _httpbin_say "error: '$py -m venv' failed (on Debian: apt-get install python3-venv)"
            return 1
        fi
    fi

    rm -f "$stamp"
    _httpbin_say "installing the pinned test servers (httpbin, moto, FastAPI) into .venv (log: ${pip_log#"$HTTPBIN_REPO_ROOT"/})"
    if ! PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_REQUIRE_VIRTUALENV=0 \
        "$HTTPBIN_VENV/bin/python" -m pip install --quiet --requirement "$HTTPBIN_REQUIREMENTS" \
        --requirement "$HTTPBIN_SERVERS_REQUIREMENTS" </dev/null >"$pip_log" 2>&1; then
        cat "$pip_log" >&2
        _httpbin_say "error: pip install -r ${HTTPBIN_REQUIREMENTS#"$HTTPBIN_REPO_ROOT"/} -r ${HTTPBIN_SERVERS_REQUIREMENTS#"$HTTPBIN_REPO_ROOT"/} failed"
        return 1
    fi
    if ! "$HTTPBIN_VENV/bin/python" -c 'import httpbin, gunicorn, moto, boto3, fastapi, uvicorn, multipart' >>"$pip_log" 2>&1; then
        cat "$pip_log" >&2
        _httpbin_say "error: the test servers do not import after install"
        return 1
    fi
    printf '%s\n' "$want" >"$stamp"
}

# ---------------------------------------------------------------------------
# start / stop
# ---------------------------------------------------------------------------

# Runs in the background child: puts gunicorn in a process group of its own
# (so stopping it can signal master and workers together, and a Ctrl-C aimed
# at the script's group doesn't kill it before the trap runs), asks the
# kernel to SIGTERM it if the shell that started it dies (even by SIGKILL),
# then execs gunicorn.
# shellcheck disable=SC2016
_HTTPBIN_LAUNCHER='
import os, signal, sys
parent = int(sys.argv[1])
if os.getpgrp() != os.getpid():
    os.setsid()
try:
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
except Exception:
    pass
if os.getppid() != parent:  # parent already gone
    sys.exit(1)
os.execv(sys.argv[2], sys.argv[2:])
'

# Polls GET /get until it answers 200 and the log shows that *our* gunicorn
# bound the port. Exit 0 ready, 1 server died, 2 timeout.
_HTTPBIN_WAIT_READY='
import os, sys, time, urllib.request
url, pid, timeout, log, port = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
def alive():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
def bound():
    try:
        with open(log, errors="replace") as f:
            return ("Listening at: http://127.0.0.1:%s " % port) in f.read()
    except OSError:
        return False
deadline = time.monotonic() + timeout
while True:
    if not alive():
        sys.exit(1)
    try:
        with opener.open(url + "/get", timeout=2) as r:
            if r.status == 200 and bound() and alive():
                sys.exit(0)
    except Exception:
        pass
    if time.monotonic() > deadline:
        sys.exit(2)
    time.sleep(0.1)
'

_httpbin_free_port() {
    "$HTTPBIN_VENV/bin/python" -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# Process-group id of a pid ("" if it is gone).
_httpbin_pgid() {
    local stat rest
    local -a f
    if [[ -r "/proc/$1/stat" ]] && read -r stat <"/proc/$1/stat" 2>/dev/null; then
        rest="${stat##*) }"
        read -ra f <<<"$rest"
        printf '%s\n' "${f[2]:-}"
    else
        ps -o pgid= -p "$1" 2>/dev/null | tr -d ' ' || true
    fi
}

_httpbin_running() {
    local stat
    if [[ -r "/proc/$1/stat" ]]; then
        read -r stat <"/proc/$1/stat" 2>/dev/null || return 1
        stat="${stat##*) }"
        [[ "${stat:0:1}" != "Z" && "${stat:0:1}" != "X" ]]
    else
        kill -0 "$1" 2>/dev/null
    fi
}

# Remove gunicorn.<pid>.log files left by shells that died without stopping
# (e.g. SIGKILL; their server died with them through PDEATHSIG).
_httpbin_prune_logs() {
    local f p
    for f in "$HTTPBIN_STATE_DIR"/gunicorn.*.log; do
        [[ -e "$f" ]] || continue
        p="${f##*/gunicorn.}"
        p="${p%.log}"
        [[ "$p" =~ ^[0-9]+$ ]] || continue
        kill -0 "$p" 2>/dev/null || rm -f "$f"
    done
}

_httpbin_on_exit() {
    local rc=$?
    httpbin_stop || true
    return "$rc"
}

_httpbin_on_signal() {
    local sig="$1"
    httpbin_stop || true
    trap - "$sig" EXIT
    # Die by the same signal so the caller sees how we ended.
    kill -s "$sig" "${BASHPID:-$$}"
}

_httpbin_add_no_proxy() {
    # Make sure a proxy configured in the environment is never used for the
    # loopback server (libcurl, URLSession and python honour no_proxy).
    local v cur
    for v in no_proxy NO_PROXY; do
        cur="${!v:-}"
        case ",$cur," in
            *,127.0.0.1,*) ;;
            *) export "$v=127.0.0.1,localhost${cur:+,$cur}" ;;
        esac
    done
}

httpbin_start() {
    local workers="${APIKIT_HTTPBIN_WORKERS:-2}"
    local threads="${APIKIT_HTTPBIN_THREADS:-16}"
    local timeout="${APIKIT_HTTPBIN_START_TIMEOUT:-30}"
    local attempt port url log pid rc
    local me="${BASHPID:-$$}" # (expanded here: inside the `&` command it would be the child's pid)

    if [[ -n "$_HTTPBIN_PID" && "$_HTTPBIN_OWNER" == "${BASHPID:-$$}" ]] && _httpbin_running "$_HTTPBIN_PID"; then
        _httpbin_say "already running at ${APIKIT_HTTPBIN_URL:-?} (pid $_HTTPBIN_PID)"
        return 0
    fi
    if [[ ! -x "$HTTPBIN_VENV/bin/gunicorn" ]]; then
        _httpbin_say "error: $HTTPBIN_VENV/bin/gunicorn missing; run httpbin_install first"
        return 1
    fi
    mkdir -p "$HTTPBIN_STATE_DIR"
    _httpbin_prune_logs

    # Stop the server however this shell ends. Signal traps only in scripts:
    # an interactive shell that sourced this keeps its own Ctrl-C behaviour.
    trap '_httpbin_on_exit' EXIT
    if [[ $- != *i* ]]; then
        trap '_httpbin_on_signal INT' INT
        trap '_httpbin_on_signal TERM' TERM
        trap '_httpbin_on_signal HUP' HUP
    fi

    for attempt in 1 2 3; do
        port="$(_httpbin_free_port)" || { _httpbin_say "error: cannot pick a free port"; return 1; }
        url="http://127.0.0.1:${port}"
        log="$HTTPBIN_STATE_DIR/gunicorn.$me.log"
        : >"$log"

        "$HTTPBIN_VENV/bin/python" -c "$_HTTPBIN_LAUNCHER" "$me" \
            "$HTTPBIN_VENV/bin/gunicorn" \
            --worker-class gthread \
            --workers "$workers" \
            --threads "$threads" \
            --bind "127.0.0.1:${port}" \
            --keep-alive 15 \
            --timeout 120 \
            --graceful-timeout 5 \
            --no-control-socket \
            --chdir "$HTTPBIN_STATE_DIR" \
            --access-logfile - \
            --error-logfile - \
            httpbin:app \
            </dev/null >>"$log" 2>&1 &
        pid=$!
        _HTTPBIN_PID="$pid"
        _HTTPBIN_OWNER="$me"
        _HTTPBIN_LOG="$log"

        rc=0
        "$HTTPBIN_VENV/bin/python" -c "$_HTTPBIN_WAIT_READY" "$url" "$pid" "$timeout" "$log" "$port" || rc=$?
        if [[ $rc -eq 0 ]]; then
            export APIKIT_HTTPBIN_URL="$url"
            _httpbin_add_no_proxy
            return 0
        fi

        if [[ $rc -eq 1 ]] && grep -qi 'address already in use' "$log" 2>/dev/null && [[ $attempt -lt 3 ]]; then
            _httpbin_say "port $port was taken meanwhile; retrying"
            httpbin_stop || true
            continue
        fi
        if [[ $rc -eq 2 ]]; then
            _httpbin_say "error: no answer from $url/get within ${timeout}s; gunicorn log:"
        else
            _httpbin_say "error: gunicorn exited during startup; its log:"
        fi
        cat "$log" >&2 || true
        httpbin_stop || true
        return 1
    done
    return 1
}

httpbin_stop() {
    local pid="$_HTTPBIN_PID" log="$_HTTPBIN_LOG" pgid i
    [[ -n "$pid" ]] || return 0
    if [[ "$_HTTPBIN_OWNER" != "${BASHPID:-$$}" ]]; then
        # A subshell inherited the variables; the server belongs to its parent.
        return 0
    fi
    _HTTPBIN_PID=""
    _HTTPBIN_OWNER=""
    _HTTPBIN_LOG=""

    pgid="$(_httpbin_pgid "$pid")"
    # The launcher made gunicorn its own group leader; if that somehow did not
    # happen, never signal the caller's group: fall back to the pid alone.
    if [[ "$pgid" == "$pid" ]]; then
        kill -TERM -- "-$pgid" 2>/dev/null || true
    else
        pgid=""
        kill -TERM "$pid" 2>/dev/null || true
    fi

    # gunicorn's master reaps its workers (graceful timeout 5 s) before it
    # exits; give it up to 10 s, then kill whatever is left.
    for ((i = 0; i < 100; i++)); do
        _httpbin_running "$pid" || break
        sleep 0.1
    done
    if [[ -n "$pgid" ]]; then
        kill -KILL -- "-$pgid" 2>/dev/null || true
    else
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    unset APIKIT_HTTPBIN_URL

    if [[ -n "$log" && -f "$log" ]]; then
        mv -f "$log" "$HTTPBIN_STATE_DIR/gunicorn.log" 2>/dev/null || true
    fi
    return 0
}
