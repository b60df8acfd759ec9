#!/usr/bin/env bash
# scripts/servers/nginx.sh — writes an nginx config for one of APIKit's uses and runs nginx in the
# foreground with it (started through serve_start, which stops it). Config, pid, temp files and
# the error log's file are in STATE; errors also go to stderr (the serve log).
#
#   nginx.sh NGINX STATE tls PORT TLS_PORT WRONG_NAME_PORT UPSTREAM
#       the AsyncHTTPClient transport's TLS tests (scripts/test.sh): http://127.0.0.1:PORT/ answers
#       "ok" (the health check); https://127.0.0.1:TLS_PORT/ is HTTP/2 (ALPN h2, else HTTP/1.1)
#       with STATE/server.pem (scripts/servers/make_certs.py), proxied to UPSTREAM (httpbin), every
#       answer carrying X-Server-Protocol; https://127.0.0.1:WRONG_NAME_PORT/ shows the same CA's
#       certificate for another name
#   nginx.sh NGINX STATE files PORT
#       the benchmarks (scripts/benchmark.sh, e2e-instruction-counts.sh): Benchmarks/Fixtures/ with
#       keep-alive, POST /upload (reads the whole body, then 200 "ok") and GET /download-1g (1 GB)
set -euo pipefail
nginx="$1" state="$2" mode="$3" port="$4"
fixtures="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../Benchmarks/Fixtures" && pwd -P)"
mkdir -p "$state/tmp"

if [[ "$mode" == tls ]]; then
    servers="
    server { listen 127.0.0.1:$port; location / { return 200 \"ok\n\"; } }
    server {
        listen 127.0.0.1:$5 ssl http2;
        ssl_certificate \"$state/server.pem\";
        ssl_certificate_key \"$state/server.key\";
        location / {
            add_header X-Server-Protocol \$server_protocol always;
            proxy_pass $7;
            proxy_http_version 1.1;
            proxy_set_header Connection \"\";
            proxy_set_header Host \$http_host;
        }
    }
    server {
        listen 127.0.0.1:$6 ssl http2;
        ssl_certificate \"$state/wrong-name.pem\";
        ssl_certificate_key \"$state/wrong-name.key\";
        location / { return 200 \"this certificate names wrong.invalid\n\"; }
    }"
else
    truncate -s 1G "$state/download-1g.bin" # sparse: zeros that take no disk space
    # POST /upload: a plain "return 200" would answer before the body arrived and the client would
    # stop sending; mirror_request_body makes nginx read the body first, then the static handler
    # refuses POST (405), which error_page turns into 200 "ok".
    servers="
    server {
        listen 127.0.0.1:$port;
        root \"$fixtures\";
        location / { add_header Cache-Control \"no-store\"; }
        location = /upload {
            mirror /upload-sink;
            mirror_request_body on;
            alias \"$fixtures/items.json\";
            error_page 405 =200 /upload-done;
        }
        location = /download-1g { alias \"$state/download-1g.bin\"; }
        location = /upload-sink { internal; return 204; }
        location = /upload-done { internal; default_type text/plain; return 200 \"ok\n\"; }
    }"
fi

# As root, workers would default to the user nobody: run them as the current user.
user=""
if [[ "$(id -u)" == 0 ]]; then user="user $(id -un) $(id -gn);"; fi
cat >"$state/nginx.conf" <<CONF
$user
daemon off;
worker_processes 1;
pid "$state/nginx.pid";
error_log stderr warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nodelay on;
    keepalive_timeout 75s;
    keepalive_requests 1000000;
    client_max_body_size 0;
    client_body_temp_path "$state/tmp/client_body";
    proxy_temp_path "$state/tmp/proxy";
    fastcgi_temp_path "$state/tmp/fastcgi";
    uwsgi_temp_path "$state/tmp/uwsgi";
    scgi_temp_path "$state/tmp/scgi";
    types { application/json json; }
    default_type application/octet-stream;
$servers
}
CONF
exec "$nginx" -p "$state" -c "$state/nginx.conf" -e stderr
