# shellcheck shell=bash
#
# scripts/servers/nginx.sh — find nginx, or install Debian's nginx-light when missing. A
# library: `source` it (scripts/test.sh for the TLS server, scripts/benchmark.sh for the
# end-to-end benchmarks).
#
#   nginx_find              prints the nginx binary's path; exit 1 when there is none
#   nginx_install LOG WHY   installs nginx-light with apt-get (root only), keeping the package
#                           from starting the system service; prints why it cannot ("... WHY")
#                           and returns 1 when it cannot

nginx_find() {
    local candidate
    for candidate in "$(command -v nginx 2>/dev/null || true)" /usr/sbin/nginx /usr/local/sbin/nginx /usr/local/nginx/sbin/nginx; do
        if [[ -n "$candidate" && -x "$candidate" ]]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 1
}

nginx_install() {
    local log="$1" why="$2" rc=0 created_policy=""
    if [[ "$(id -u)" -ne 0 ]]; then
        printf 'nginx.sh: nginx is not installed and this is not root, so it cannot be installed: %s (install nginx-light)\n' "$why" >&2
        return 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        printf 'nginx.sh: nginx is not installed and there is no apt-get: %s (install nginx)\n' "$why" >&2
        return 1
    fi
    # Keep the package from starting the system nginx service (on port 80):
    # policy-rc.d exit 101 tells invoke-rc.d/deb-systemd-invoke not to start it.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\n# temporary, from APIKit scripts/servers/nginx.sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        created_policy=1
    fi
    mkdir -p "$(dirname "$log")"
    printf 'nginx.sh: installing nginx-light with apt-get (log: %s)\n' "$log" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx-light </dev/null >"$log" 2>&1; then
        printf 'nginx.sh: apt-get install failed; running apt-get update and trying again\n' >&2
        { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx-light; } </dev/null >>"$log" 2>&1 || rc=$?
    fi
    if [[ -n "$created_policy" ]]; then rm -f /usr/sbin/policy-rc.d; fi
    if [[ $rc -ne 0 ]] || ! nginx_find >/dev/null; then
        tail -n 20 "$log" >&2 || true
        printf 'nginx.sh: could not install nginx-light: %s\n' "$why" >&2
        return 1
    fi
}
