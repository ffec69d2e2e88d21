#!/usr/bin/env python3
"""Loopback HTTP + WebSocket server for WeftNetworking's real-transport tests.

Binds 127.0.0.1 on ports chosen by the kernel and prints one line:
    PORTS http=<port> ws=<port> closed=<port>
`closed` is a port held by a socket that is bound but never listens, so connecting to it is
refused and no other server can be given it (a released port was once handed straight to this
server's own WebSocket listener).

Routes (HTTP):
    GET  /ok                 -> 200 {"id": 1, "name": "weft", "created": "2024-05-01T12:00:00Z"}
    GET  /missing            -> 404 "no route /missing"
    GET  /flaky?key=K&fail=N -> 500 for the first N calls with key K, then 200 {"calls": n}
    GET  /slow?ms=M          -> waits M ms, then 200
    GET  /large?bytes=B      -> 200 with B bytes (a repeating pattern)
    GET  /headers?count=N&size=S
                             -> 200 {"ok": true} with N extra header fields of S bytes each
    GET  /nested?depth=D     -> 200 with D nested JSON arrays ([[[...]]])
    POST /echo               -> 200 with the request body
    GET  /count?key=K        -> 200 {"calls": n} how many /flaky calls K received
    GET  /stream?key=K&chunk=C&delay_ms=D&bytes=B
                             -> 200, chunked (no Content-Length): C-byte chunks every D ms
                                until B bytes (default 1 GiB) or until the client goes away
    GET  /declared?key=K&bytes=B&chunk=C&delay_ms=D
                             -> 200 with Content-Length B, the body sent in C-byte pieces
                                every D ms until done or until the client goes away
    GET  /sent?key=K         -> 200 {"bytes": n, "closed": bool}: what /stream or /declared
                                sent for K, and whether that response has ended

WebSocket (/ on the ws port): echoes every message (weft_websocket, the fixtures' shared
standard-library server, found on PYTHONPATH: TestProcesses sets it).

The server stops by itself when stdin closes (the test process died or closed it),
when its parent changes, or after --lifetime seconds (default 120).
"""
import asyncio
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from weft_websocket import port_of
from weft_websocket import serve as websocket_serve

COUNTS = {}
COUNTS_LOCK = threading.Lock()
SENT = {}
PATTERN = b"0123456789abcdef"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY, Nagle plus the
    # client's delayed ACK add ~40 ms to every keep-alive response.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/ok":
            body = {"id": 1, "name": "weft", "created": "2024-05-01T12:00:00Z"}
            self.reply(200, json.dumps(body).encode())
        elif url.path == "/flaky":
            key, fail = query.get("key", ""), int(query.get("fail", "1"))
            with COUNTS_LOCK:
                COUNTS[key] = COUNTS.get(key, 0) + 1
                calls = COUNTS[key]
            if calls <= fail:
                self.reply(500, b"flaky failure %d" % calls, "text/plain")
            else:
                self.reply(200, json.dumps({"calls": calls}).encode())
        elif url.path == "/count":
            with COUNTS_LOCK:
                calls = COUNTS.get(query.get("key", ""), 0)
            self.reply(200, json.dumps({"calls": calls}).encode())
        elif url.path == "/slow":
            time.sleep(int(query.get("ms", "1000")) / 1000)
            self.reply(200, b'{"slow": true}')
        elif url.path == "/stream":
            self.stream(query, chunked=True)
        elif url.path == "/declared":
            self.stream(query, chunked=False)
        elif url.path == "/sent":
            with COUNTS_LOCK:
                sent = SENT.get(query.get("key", ""), {"bytes": 0, "closed": False})
            self.reply(200, json.dumps(sent).encode())
        elif url.path == "/headers":
            # `count` extra header fields of `size` bytes each, then a small JSON body.
            count, size = int(query.get("count", "10")), int(query.get("size", "8"))
            body = b'{"ok": true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for index in range(count):
                self.send_header("X-Extra-%d" % index, "v" * size)
            self.end_headers()
            self.wfile.write(body)
        elif url.path == "/nested":
            depth = int(query.get("depth", "10"))
            self.reply(200, ("[" * depth + "]" * depth).encode())
        elif url.path == "/large":
            size = int(query.get("bytes", "1048576"))
            pattern = b"0123456789abcdef"
            body = (pattern * (size // len(pattern) + 1))[:size]
            self.reply(200, body, "application/octet-stream")
        else:
            self.reply(404, ("no route %s" % url.path).encode(), "text/plain")

    def stream(self, query, chunked):
        key = query.get("key", "")
        total = int(query.get("bytes", str(1 << 30)))
        chunk = int(query.get("chunk", "65536"))
        delay = int(query.get("delay_ms", "1")) / 1000
        piece = (PATTERN * (chunk // len(PATTERN) + 1))[:chunk]
        sent = 0

        def record(closed):
            with COUNTS_LOCK:
                SENT[key] = {"bytes": sent, "closed": closed}

        record(False)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(total))
        self.end_headers()
        try:
            while sent < total:
                data = piece[: min(chunk, total - sent)]
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                else:
                    self.wfile.write(data)
                sent += len(data)
                record(False)
                time.sleep(delay)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            record(True)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if urlparse(self.path).path == "/echo":
            self.reply(200, body, self.headers.get("Content-Type", "application/json"))
        else:
            self.reply(404, b"no route", "text/plain")


def start_websocket():
    """The echo WebSocket on its own asyncio loop and thread (weft_websocket, the fixtures'
    shared standard-library server); returns its port."""
    started = threading.Event()
    port = [0]

    async def echo(ws):
        async for message in ws:
            await ws.send(message)

    async def run():
        server = await websocket_serve(echo, "127.0.0.1", 0)
        port[0] = port_of(server)
        started.set()
        await asyncio.Future()  # until the process exits

    threading.Thread(target=lambda: asyncio.run(run()), daemon=True).start()
    started.wait(10)
    return port[0]


def watchdog(lifetime):
    parent = os.getppid()
    deadline = time.monotonic() + lifetime
    while time.monotonic() < deadline and os.getppid() == parent:
        time.sleep(0.2)
    os._exit(0)


def stdin_watch():
    try:
        sys.stdin.read()
    finally:
        os._exit(0)


def main():
    lifetime = 120.0
    if "--lifetime" in sys.argv:
        lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1])
    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    # Bound, never listening, kept open for the server's lifetime: a connection is refused,
    # and the port cannot be reused (by this server's WebSocket listener or anything else).
    closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    threading.Thread(target=watchdog, args=(lifetime,), daemon=True).start()
    threading.Thread(target=stdin_watch, daemon=True).start()
    ws_port = start_websocket()
    print("PORTS http=%d ws=%d closed=%d" % (http.server_address[1], ws_port, closed_port),
          flush=True)
    http.serve_forever()


if __name__ == "__main__":
    main()
