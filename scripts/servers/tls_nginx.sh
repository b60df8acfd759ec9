#!/usr/bin/env bash
# scripts/servers/tls_nginx.sh — the TLS test server: nginx with HTTP/2 over TLS in front of
# httpbin, for the AsyncHTTPClient transport's TLS tests. Started by scripts/test.sh through
# serve_start (which stops it); runs in the foreground.
#
#   tls_nginx.sh NGINX STATE_DIR HEALTH_PORT TLS_PORT WRONG_NAME_PORT UPSTREAM_URL
#
# STATE_DIR holds the certificates (scripts/servers/make_certs.py) and gets nginx.conf, its
# logs and temp files.
#   http://127.0.0.1:HEALTH_PORT/          200 "ok": serve_start's health check
#   https://127.0.0.1:TLS_PORT/...         HTTP/2 (ALPN h2, HTTP/1.1 otherwise) with server.pem,
#                                          proxied to UPSTREAM_URL (httpbin); every answer
#                                          carries X-Server-Protocol (HTTP/2.0 or HTTP/1.1)
#   https://127.0.0.1:WRONG_NAME_PORT/     the same CA's certificate for another host name
set -euo pipefail

nginx="$1" state="$2" health_port="$3" tls_port="$4" wrong_port="$5" upstream="$6"
mkdir -p "$state/tmp"
user_line=""
if [[ "$(id -u)" -eq 0 ]]; then
    # Workers run as the current user too (root would default them to nobody).
    user_line="user $(id -un) $(id -gn);"
fi
cat >"$state/nginx.conf" <<CONF
# Written by scripts/servers/tls_nginx.sh for APIKit's TLS tests.
$user_line
daemon off;
master_process on;
worker_processes 1;
pid "$state/nginx.pid";
error_log "$state/error.log" warn;

events {
    worker_connections 512;
}

http {
    access_log off;
    client_body_temp_path "$state/tmp/client_body";
    proxy_temp_path "$state/tmp/proxy";
    fastcgi_temp_path "$state/tmp/fastcgi";
    uwsgi_temp_path "$state/tmp/uwsgi";
    scgi_temp_path "$state/tmp/scgi";
    client_max_body_size 0;

    server {
        listen 127.0.0.1:$health_port;
        location / {
            return 200 "ok\n";
        }
    }

    server {
        listen 127.0.0.1:$tls_port ssl http2;
        ssl_certificate "$state/server.pem";
        ssl_certificate_key "$state/server.key";
        location / {
            add_header X-Server-Protocol \$server_protocol always;
            proxy_pass $upstream;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
        }
    }

    server {
        listen 127.0.0.1:$wrong_port ssl http2;
        ssl_certificate "$state/wrong-name.pem";
        ssl_certificate_key "$state/wrong-name.key";
        location / {
            return 200 "this certificate names wrong.invalid\n";
        }
    }
}
CONF
exec "$nginx" -p "$state" -c "$state/nginx.conf"
