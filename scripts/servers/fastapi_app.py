"""A FastAPI app for APIKit's integration tests (run by scripts/test.sh on uvicorn).

    .venv/bin/uvicorn --app-dir scripts/servers fastapi_app:app --host 127.0.0.1 --port PORT

Uploads (every answer is JSON; "headers" holds the request's framing headers,
{"content-length": str or null, "transfer-encoding": str or null}):

    POST /multipart         any multipart/form-data body → {"fields": {name: value or [values]},
                            "files": [{"field", "filename", "content_type", "size", "sha256"}], "headers"}
    POST /json              → {"json": the parsed body, "headers"}
    POST /form              an urlencoded form → {"form": {name: value or [values]}, "headers"}
    PUT|POST /raw           the body, read as a stream → {"size", "sha256", "content_type", "headers"}

Downloads and streams:

    GET /sse?count=5&drop_after=N&retry_ms=100
        text/event-stream: first a comment line (": apikit test stream") and "retry: RETRY_MS",
        then events with ids 1...count, each two data lines ("event I" and "line two of I"; a
        client joins them with "\\n"), named "tick" when the id is odd, unnamed (a "message")
        when even. With a Last-Event-ID header the stream continues after that id (204 No
        Content, "stop reconnecting", once that id is the last). With drop_after=N the server
        closes the connection after N events of this connection (Connection: close).
    GET /jsonl?count=N      application/x-ndjson: {"index": I, "text": "line I"} per line, I in 0..<N
    GET /slow?count=N&interval_ms=100
        text/event-stream: one event every interval (id I, data {"index": I, "sent_ms": server
        time in ms}), so a test can see elements arrive before the body ends
    GET /download?size=N    N bytes, byte I = I % 251, with Content-Length, streamed in 64 KiB
                            chunks; "Range: bytes=START-" (or START-END) answers 206 with the rest;
                            ETag "size-N"; an If-Range that is not that ETag gets the whole body (200)
    POST /chunks            {"chunks": [hex], "content_type": str} → a 200 whose body is those bytes,
                            each chunk written on its own (empty ones skipped) 2 ms after the one
                            before, so that a client sees the body split where the test split it;
                            204 when the request has a Last-Event-ID (a reconnection: no more)
    GET /status/{code}      that status, with {"status": code, "error": reason} (no body for 1xx/204/304)

HTTP caching (each test passes its own KEY; the server counts per key):

    GET /cache/etag?key=KEY&max_age=N
                            {"key": KEY, "served": I} (I counts the full answers), with
                            Cache-Control: max-age=N and ETag "KEY-v1"; an If-None-Match naming
                            that ETag answers 304 with the ETag and Cache-Control, no body
    GET /cache/vary?key=KEY {"language": the request's Accept-Language or null, "served": I}, with
                            Vary: Accept-Language and Cache-Control: max-age=60
    POST /cache/etag?key=KEY
                            204: a change, for invalidation
    GET /cache/swr?key=KEY  {"key": KEY, "served": I, "version": V}, with Cache-Control:
                            max-age=M, stale-while-revalidate=600 and ETag "KEY-vV"; V (1) and M (0)
                            are the key's, set by POST /cache/swr; an If-None-Match naming the
                            current ETag answers 304 with the ETag and Cache-Control, no body. With
                            hold set, a request with If-None-Match waits for the key's release first
    HEAD /cache/swr?key=KEY the head GET /cache/swr would answer (ETag, Cache-Control, and the
                            Content-Length of the body the last full answer had), counted as a head
    POST /cache/swr?key=KEY&version=V&max_age=M&hold=false
                            204: sets what GET /cache/swr answers for KEY from now on
    GET /cache/slow?key=KEY {"key": KEY, "served": I} (I counts the arrivals: the Ith to arrive
                            gets I) with Cache-Control: max-age=600, sent once the key is released;
                            each request counts as an arrival as soon as it arrives
    POST /cache/release?key=KEY
                            204: releases the requests of KEY that wait, and every later one; a
                            request still waiting after 60 s is answered 504 instead
    GET /cache/stats?key=KEY
                            {"full": full answers, "not_modified": 304s, "conditional": requests
                            that carried If-None-Match, "arrivals": requests to /cache/slow,
                            "head": HEAD requests}

Query values:

    GET /float?value=X      X parsed by FastAPI as a `float` query parameter (pydantic) →
                            {"value": the float}; text it cannot parse answers 422
"""

import asyncio
import hashlib
import http
import time

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.datastructures import UploadFile

app = FastAPI()

CHUNK = 64 * 1024
PATTERN = bytes(i % 251 for i in range(CHUNK + 251))


def framing(request: Request) -> dict:
    return {name: request.headers.get(name) for name in ("content-length", "transfer-encoding")}


def grouped(pairs) -> dict:
    """Name → value, or → [values] when the name occurs more than once."""
    result = {}
    for name, value in pairs:
        if name in result:
            if not isinstance(result[name], list):
                result[name] = [result[name]]
            result[name].append(value)
        else:
            result[name] = value
    return result


@app.post("/multipart")
async def multipart(request: Request):
    fields, files = [], []
    async with request.form(max_files=10_000, max_fields=10_000, max_part_size=64 * 1024 * 1024) as form:
        for name, value in form.multi_items():
            if isinstance(value, UploadFile):
                digest, size = hashlib.sha256(), 0
                while chunk := await value.read(CHUNK):
                    digest.update(chunk)
                    size += len(chunk)
                files.append({"field": name, "filename": value.filename, "content_type": value.content_type,
                              "size": size, "sha256": digest.hexdigest()})
            else:
                fields.append((name, value))
    return {"fields": grouped(fields), "files": files, "headers": framing(request)}


@app.post("/json")
async def echo_json(request: Request):
    return {"json": await request.json(), "headers": framing(request)}


@app.post("/form")
async def form(request: Request):
    async with request.form() as parsed:
        return {"form": grouped(parsed.multi_items()), "headers": framing(request)}


@app.api_route("/raw", methods=["PUT", "POST"])
async def raw(request: Request):
    digest, size = hashlib.sha256(), 0
    async for chunk in request.stream():
        digest.update(chunk)
        size += len(chunk)
    return {"size": size, "sha256": digest.hexdigest(), "content_type": request.headers.get("content-type"),
            "headers": framing(request)}


@app.get("/sse")
async def sse(request: Request, count: int = 5, drop_after: int | None = None, retry_ms: int = 100):
    last = request.headers.get("last-event-id", "")
    start = int(last) + 1 if last.isdigit() else 1
    if start > count:
        return Response(status_code=204)

    async def events():
        yield f": apikit test stream\nretry: {retry_ms}\n\n"
        for sent, i in enumerate(range(start, count + 1)):
            if drop_after is not None and sent >= drop_after:
                return  # ends the response early: the connection closes without a final event
            name = "event: tick\n" if i % 2 else ""
            yield f"id: {i}\n{name}data: event {i}\ndata: line two of {i}\n\n"

    headers = {"Cache-Control": "no-cache"}
    if drop_after is not None:
        headers["Connection"] = "close"
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


@app.get("/jsonl")
async def jsonl(count: int = 3):
    async def lines():
        for i in range(count):
            yield f'{{"index": {i}, "text": "line {i}"}}\n'

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@app.get("/slow")
async def slow(count: int = 5, interval_ms: int = 100):
    async def events():
        for i in range(count):
            if i:
                await asyncio.sleep(interval_ms / 1000)
            yield f'id: {i}\ndata: {{"index": {i}, "sent_ms": {int(time.time() * 1000)}}}\n\n'

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@app.get("/download")
async def download(request: Request, size: int = 1024):
    start, end = 0, size - 1
    etag = f'"size-{size}"'  # the body depends on nothing else: a stable, strong validator
    status, headers = 200, {"Accept-Ranges": "bytes", "ETag": etag}
    spec = request.headers.get("range", "")
    if_range = request.headers.get("if-range")
    if if_range is not None and if_range != etag:
        spec = ""  # RFC 9110 13.1.5: the validator does not match, send the whole body
    if spec.startswith("bytes="):
        first, _, last = spec[len("bytes="):].partition("-")
        if not first.isdigit() or int(first) >= size or (last and (not last.isdigit() or int(last) < int(first))):
            return Response(status_code=416, headers={"Content-Range": f"bytes */{size}", "ETag": etag})
        start, end = int(first), min(int(last), size - 1) if last else size - 1
        status = 206
        headers["Content-Range"] = f"bytes {start}-{end}/{size}"
    headers["Content-Length"] = str(end + 1 - start)

    async def chunks():
        offset = start
        while offset <= end:
            n = min(CHUNK, end + 1 - offset)
            yield PATTERN[offset % 251:offset % 251 + n]
            offset += n

    return StreamingResponse(chunks(), status_code=status, headers=headers, media_type="application/octet-stream")


@app.post("/chunks")
async def chunks(request: Request):
    if "last-event-id" in request.headers:
        return Response(status_code=204)
    spec = await request.json()
    parts = [bytes.fromhex(chunk) for chunk in spec["chunks"] if chunk]

    async def body():
        for i, part in enumerate(parts):
            if i:
                await asyncio.sleep(0.002)
            yield part

    return StreamingResponse(body(), media_type=spec["content_type"])


@app.get("/status/{code}")
async def status(code: int):
    if code < 200 or code in (204, 304):
        return Response(status_code=code)
    try:
        reason = http.HTTPStatus(code).phrase
    except ValueError:
        reason = "Unknown"
    return JSONResponse({"status": code, "error": reason}, status_code=code)


@app.get("/float")
async def parse_float(value: float) -> dict:
    return {"value": value}


CACHE_COUNTS: dict = {}
EMPTY_COUNTS = {"full": 0, "not_modified": 0, "conditional": 0, "arrivals": 0, "head": 0}


def cache_count(key: str, name: str) -> int:
    counts = CACHE_COUNTS.setdefault(key, dict(EMPTY_COUNTS))
    counts[name] += 1
    return counts[name]


# The gates of the requests that wait for a test to release them, by key: a test holds the
# server's answer until the client has done what it checks (all its calls waiting, say), so
# that no verdict depends on how long an answer takes.
CACHE_GATES: dict = {}


async def released(key: str) -> bool:
    """Waits until KEY is released (at once when it was); False after 60 s without."""
    try:
        await asyncio.wait_for(CACHE_GATES.setdefault(key, asyncio.Event()).wait(), timeout=60)
        return True
    except asyncio.TimeoutError:
        return False


def never_released(key: str) -> Response:
    return JSONResponse({"key": key, "error": "not released within 60 s"}, status_code=504)


@app.get("/cache/etag")
async def cache_etag(request: Request, key: str, max_age: int = 0):
    etag = f'"{key}-v1"'
    headers = {"ETag": etag, "Cache-Control": f"max-age={max_age}"}
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        cache_count(key, "conditional")
        if if_none_match == etag:
            cache_count(key, "not_modified")
            return Response(status_code=304, headers=headers)
    served = cache_count(key, "full")
    return JSONResponse({"key": key, "served": served}, headers=headers)


@app.post("/cache/etag")
async def cache_change(key: str):
    return Response(status_code=204)


@app.get("/cache/vary")
async def cache_vary(request: Request, key: str):
    served = cache_count(key, "full")
    headers = {"Vary": "Accept-Language", "Cache-Control": "max-age=60"}
    return JSONResponse({"language": request.headers.get("accept-language"), "served": served}, headers=headers)


# What GET /cache/swr answers, by key: the version (in the ETag and the body), max-age, and
# whether a conditional request waits for the key's release.
SWR_STATES: dict = {}


@app.api_route("/cache/swr", methods=["GET", "HEAD"])
async def cache_swr(request: Request, key: str):
    state = SWR_STATES.setdefault(key, {"version": 1, "max_age": 0, "hold": False})
    etag = f'"{key}-v{state["version"]}"'
    headers = {"ETag": etag, "Cache-Control": f"max-age={state['max_age']}, stale-while-revalidate=600"}
    if request.method == "HEAD":
        # The head of the body the last full answer had (its length included): the server
        # leaves the body out of a HEAD's response.
        cache_count(key, "head")
        served = CACHE_COUNTS[key]["full"]
        return JSONResponse({"key": key, "served": served, "version": state["version"]}, headers=headers)
    if_none_match = request.headers.get("if-none-match")
    if if_none_match is not None:
        cache_count(key, "conditional")
        if state["hold"] and not await released(key):
            return never_released(key)
        if if_none_match == etag:
            cache_count(key, "not_modified")
            return Response(status_code=304, headers=headers)
    served = cache_count(key, "full")
    return JSONResponse({"key": key, "served": served, "version": state["version"]}, headers=headers)


@app.post("/cache/swr")
async def cache_swr_change(key: str, version: int = 1, max_age: int = 0, hold: bool = False):
    SWR_STATES[key] = {"version": version, "max_age": max_age, "hold": hold}
    return Response(status_code=204)


@app.get("/cache/slow")
async def cache_slow(key: str):
    arrival = cache_count(key, "arrivals")
    if not await released(key):
        return never_released(key)
    cache_count(key, "full")
    return JSONResponse({"key": key, "served": arrival}, headers={"Cache-Control": "max-age=600"})


@app.post("/cache/release")
async def cache_release(key: str):
    CACHE_GATES.setdefault(key, asyncio.Event()).set()
    return Response(status_code=204)


@app.get("/cache/stats")
async def cache_stats(key: str):
    return CACHE_COUNTS.get(key, EMPTY_COUNTS)
