#!/usr/bin/env python3
"""A server that reads request bodies ONLY by Content-Length, for APIKit's integration tests.

    python3 scripts/servers/length_server.py PORT

Python standard library only (http.server); listens on 127.0.0.1:PORT (scripts/servers/serve.sh
picks a free one).

It does NOT understand chunked transfer encoding, on purpose: it reads exactly Content-Length
bytes (0 when the header is absent), so a chunked body arrives as 0 bytes, or, when
Content-Length is sent as well, as chunk-size lines inside the data. That shows which framing
a client really put on the wire. Every answer closes the connection (what a chunked body left
unread must not become the next request).

    any method, any path    {"method", "path", "content_length": int or null,
                            "transfer_encoding": str or null, "received": int, "sha256": hex,
                            "content_type", "headers": {name: value, every request header}}
    POST /multipart         the same, plus "parts": [{"name", "filename", "content_type", "size",
                            "sha256"}] parsed from the multipart/form-data body it read
                            (an "error" string instead when that body is not valid multipart)
"""

import email.parser
import email.policy
import hashlib
import json
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def multipart_parts(body, content_type):
    """The parts of a multipart/form-data body, split exactly on CRLF--boundary."""
    headers = email.parser.HeaderParser(policy=email.policy.HTTP).parsestr(f"Content-Type: {content_type}\r\n\r\n")
    boundary = headers.get_param("boundary")
    if not boundary:
        raise ValueError("no boundary in Content-Type")
    sections = (b"\r\n" + body).split(b"\r\n--" + boundary.encode("latin-1"))
    if len(sections) < 2 or not sections[-1].startswith(b"--"):
        raise ValueError("no closing delimiter")
    parts = []
    for section in sections[1:-1]:
        head, separator, content = section.partition(b"\r\n\r\n")
        if not separator:
            raise ValueError("a part without a blank line after its headers")
        # the delimiter line may end with spaces before its CRLF (RFC 2046 transport padding)
        head = head.lstrip(b" \t").removeprefix(b"\r\n")
        part = email.parser.BytesHeaderParser(policy=email.policy.HTTP).parsebytes(head + b"\r\n\r\n")
        parts.append({
            "name": part.get_param("name", header="content-disposition"),
            "filename": part.get_filename(),
            "content_type": part.get("content-type"),
            "size": len(content),
            "sha256": hashlib.sha256(content).hexdigest(),
        })
    return parts


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # so that "Expect: 100-continue" is answered

    def handle_one_request(self):
        super().handle_one_request()
        self.close_connection = True

    def answer(self):
        length = self.headers.get("Content-Length")
        content_length = int(length) if length is not None and length.strip().isdigit() else None
        multipart = self.command == "POST" and self.path.split("?")[0] == "/multipart"
        digest, received, kept, left = hashlib.sha256(), 0, [], content_length or 0
        while left > 0:  # in chunks: only a multipart body is kept whole
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            digest.update(chunk)
            received += len(chunk)
            left -= len(chunk)
            if multipart:
                kept.append(chunk)
        result = {
            "method": self.command,
            "path": self.path,
            "content_length": content_length,
            "transfer_encoding": self.headers.get("Transfer-Encoding"),
            "received": received,
            "sha256": digest.hexdigest(),
            "content_type": self.headers.get("Content-Type"),
            "headers": dict(self.headers.items()),
        }
        if multipart:
            try:
                result["parts"] = multipart_parts(b"".join(kept), self.headers.get("Content-Type", ""))
            except ValueError as error:
                result["error"] = str(error)
        data = json.dumps(result).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self.answer
        raise AttributeError(name)

    def log_message(self, format, *args):
        sys.stderr.write("%s %s\n" % (self.log_date_time_string(), format % args))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def shutdown_request(self, request):
        # A lingering close: the body bytes this server did not read (a chunked body) are still
        # in the socket, and closing it now would send a reset that can destroy the answer
        # before the client reads it. Stop sending, drain for up to 5 s, then close.
        deadline = time.monotonic() + 5
        try:
            request.shutdown(socket.SHUT_WR)
            request.settimeout(1)
            while request.recv(65536) and time.monotonic() < deadline:
                pass
        except OSError:
            pass
        self.close_request(request)


def main():
    Server(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()


if __name__ == "__main__":
    sys.exit(main())
