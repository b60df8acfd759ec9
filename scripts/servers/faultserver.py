#!/usr/bin/env python3
"""A misbehaving HTTP server for APIKit's fault-injection tests (standard library only).

    python3 scripts/servers/faultserver.py PORT

Listens on 127.0.0.1:PORT (scripts/servers/serve.sh picks a free one). Each path is one fault:

    /ok                     200 with a small JSON body (a control)
    /reset-before-status    reads the request, then resets the connection
    /reset-mid-headers      sends half a header block, then resets
    /reset-mid-body         promises 1,000 bytes, sends 10, then resets
    /short-body             promises 1,000 bytes, sends 10, then closes normally
                            (both: ?body=TEXT sends TEXT, at most 999 bytes, instead of the 10)
    /drip?interval=S        sends headers, then one body byte every S seconds (20 bytes); with
                            ?body=TEXT, TEXT comes first instead of the first byte
    /drip-stall             /drip with 5 s between bytes (or ?interval=S)
    /malformed-status       answers "HTTP/1.1 abc nope"
    /invalid-header         a header line holding NUL and other control bytes
    /huge-headers           10 MB of header lines
    /corrupt-gzip           Content-Encoding: gzip with a body that is not gzip
    /redirect-loop          302 to itself, forever
    /never                  reads the request and never answers (holds the socket 120 s)
    /swallow                reads the request and its whole body (every byte until the client
                            closes) and never answers (holds the socket 120 s): an upload to it
                            goes out whole and can only end by the client's cancellation
    /slow-read?chunk=B&interval=S&tail=B
                            reads the request's body (its Content-Length) slowly: B bytes
                            (65536 by default) every S seconds (0.1 by default) until at most
                            tail bytes (8 MiB by default) are left, those at once; then answers
                            200 with {"received": N}. Read at once, the tail is what the
                            sockets' buffers hold when the client's last write completes: the
                            client sees no progress while the server drains those, on any
                            transport, so only the client's writes are slow
    /traffic/limited?key=K&window=S
                            the first request for K opens a window of S seconds (2 by default):
                            429 with Retry-After: S (rounded up) inside it, 200 after
    /traffic/slow?key=K&delay=S&status=N
                            waits S seconds (0.2 by default), then answers N (200 by default)
    /traffic/stats?key=K    JSON for K: "arrivals" (count), "inWindow" (arrivals inside the
                            window, the opening one included), "maxConcurrent" (most requests
                            in progress at once) and "statuses" (count per status answered)
    /ports?tag=T            a JSON list of the client ports of every connection whose request
                            carried ?tag=T (any path above), so a test can check that none of
                            its own sockets to this server is still open

The server reads one request per connection, so every complete response head says
"Connection: close": a client that pools connections (AsyncHTTPClient) must not send the next
request on one this server is about to close — that request would never be read and would fail
with a lost connection, not with the fault its test asked for.
"""

import json
import socket
import struct
import sys
import threading
import time
import urllib.parse


CLIENT_PORTS = {}
CLIENT_PORTS_LOCK = threading.Lock()
# /traffic/*: per key, arrivals and concurrency, and the window of /traffic/limited
TRAFFIC = {}
TRAFFIC_LOCK = threading.Lock()


def traffic_entry(key):
    return TRAFFIC.setdefault(key, {"arrivals": 0, "inWindow": 0, "current": 0, "maxConcurrent": 0,
                                    "statuses": {}, "windowEnd": None})


def send_status(conn, status, extra=b""):
    reasons = {200: b"OK", 429: b"Too Many Requests", 503: b"Service Unavailable"}
    body = b'{"ok":true}' if status == 200 else b""
    conn.sendall(b"HTTP/1.1 %d %s\r\n%sContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                 % (status, reasons.get(status, b"Status"), extra, len(body), body))
    conn.close()


def traffic(conn, path, params):
    key = params.get("key", "")
    if path == "/traffic/stats":
        with TRAFFIC_LOCK:
            entry = dict(traffic_entry(key))
        entry.pop("current")
        entry.pop("windowEnd")
        body = json.dumps(entry).encode()
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                     b"Connection: close\r\n\r\n%s" % (len(body), body))
        conn.close()
        return
    now = time.monotonic()
    with TRAFFIC_LOCK:
        entry = traffic_entry(key)
        entry["arrivals"] += 1
        entry["current"] += 1
        entry["maxConcurrent"] = max(entry["maxConcurrent"], entry["current"])
        if path == "/traffic/limited":
            window = float(params.get("window", "2"))
            if entry["windowEnd"] is None:
                entry["windowEnd"] = now + window
            limited = now < entry["windowEnd"]
            if limited:
                entry["inWindow"] += 1
    status, extra = 500, b""
    try:
        if path == "/traffic/limited":
            status = 429 if limited else 200
            extra = b"Retry-After: %d\r\n" % int(-(-window // 1)) if limited else b""
        else:
            time.sleep(float(params.get("delay", "0.2")))
            status, extra = int(params.get("status", "200")), b""
    finally:
        with TRAFFIC_LOCK:
            entry["current"] -= 1
            entry["statuses"][str(status)] = entry["statuses"].get(str(status), 0) + 1
    send_status(conn, status, extra)


def read_request(conn):
    """The request target, and every byte read: the head and what came of the body with it."""
    data = b""
    conn.settimeout(10)
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    return (parts[1] if len(parts) > 1 else "/"), data


def slow_read(conn, data, params):
    """/slow-read: the body read slowly, then its size answered."""
    head, _, received = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    chunk = int(params.get("chunk", "65536"))
    interval = float(params.get("interval", "0.1"))
    tail = int(params.get("tail", str(8 << 20)))
    count = len(received)
    conn.settimeout(60)
    while count < length:
        if length - count > tail:
            time.sleep(interval)
            wanted = chunk
        else:
            wanted = length - count
        while wanted > 0 and count < length:
            piece = conn.recv(min(wanted, length - count, 1 << 20))
            if not piece:
                conn.close()
                return
            count += len(piece)
            wanted -= len(piece)
    body = json.dumps({"received": count}).encode()
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                 b"Connection: close\r\n\r\n%s" % (len(body), body))
    conn.close()


def reset(conn):
    # SO_LINGER with a zero timeout: close() sends RST instead of FIN.
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def short_body(params):
    """The part of a cut-off body that is sent: ?body=TEXT (percent-decoded, at most 999 bytes) or 10 digits."""
    text = urllib.parse.unquote(params.get("body", "")).encode()[:999]
    return text or b"0123456789"


def handle(conn, client_port):
    try:
        target, data = read_request(conn)
        path, _, query = target.partition("?")
        params = dict(item.partition("=")[::2] for item in query.split("&") if item)
        if "tag" in params and path != "/ports":
            with CLIENT_PORTS_LOCK:
                CLIENT_PORTS.setdefault(params["tag"], []).append(client_port)
        if path.startswith("/traffic/"):
            traffic(conn, path, params)
        elif path == "/ports":
            with CLIENT_PORTS_LOCK:
                body = json.dumps(CLIENT_PORTS.get(params.get("tag", ""), [])).encode()
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            conn.close()
        elif path == "/ok":
            body = b'{"ok":true}'
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            conn.close()
        elif path == "/reset-before-status":
            reset(conn)
        elif path == "/reset-mid-headers":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: appli")
            time.sleep(0.2)
            reset(conn)
        elif path == "/reset-mid-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n" + short_body(params))
            time.sleep(0.2)
            reset(conn)
        elif path == "/short-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n" + short_body(params))
            time.sleep(0.2)
            conn.shutdown(socket.SHUT_WR)
            conn.close()
        elif path in ("/drip", "/drip-stall"):
            interval = float(params.get("interval", "5" if path == "/drip-stall" else "1"))
            first = urllib.parse.unquote(params.get("body", "")).encode() or b"x"
            head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(first) + 19}\r\nConnection: close\r\n\r\n"
            conn.sendall(head.encode() + first)
            for _ in range(19):
                time.sleep(interval)
                conn.sendall(b"x")
            conn.close()
        elif path == "/malformed-status":
            conn.sendall(b"HTTP/1.1 abc nope\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            time.sleep(0.2)
            conn.close()
        elif path == "/invalid-header":
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Bad: a\x00b\x01c\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            time.sleep(0.2)
            conn.close()
        elif path == "/huge-headers":
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            line = b"X-Filler: " + b"a" * 1000 + b"\r\n"
            for _ in range(10 * 1024):
                conn.sendall(line)
            conn.sendall(b"Content-Length: 2\r\nConnection: close\r\n\r\nok")
            conn.close()
        elif path == "/corrupt-gzip":
            body = b"\x1f\x8b\x08\x00this is not gzip at all" * 4
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
            time.sleep(0.2)
            conn.close()
        elif path == "/redirect-loop":
            # the query (and so the tag) is kept, so every hop is counted
            location = ("/redirect-loop?" + query if query else "/redirect-loop").encode()
            conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n"
                         b"Connection: close\r\n\r\n" % location)
            conn.close()
        elif path == "/never":
            time.sleep(120)
            conn.close()
        elif path == "/slow-read":
            slow_read(conn, data, params)
        elif path == "/swallow":
            conn.settimeout(120)
            while conn.recv(65536):
                pass
            conn.close()
        else:
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            conn.close()
    except ValueError as error:
        # a malformed number in the query or a Content-Length: a clear 400, not a silent socket
        body = str(error).encode()
        try:
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            conn.close()
        except OSError:
            pass
    except OSError:
        try:
            conn.close()
        except OSError:
            pass


def main():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", int(sys.argv[1])))
    server.listen(128)
    while True:
        conn, address = server.accept()
        threading.Thread(target=handle, args=(conn, address[1]), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
