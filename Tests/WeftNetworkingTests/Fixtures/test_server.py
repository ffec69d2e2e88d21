#!/usr/bin/env python3
"""Loopback HTTP + WebSocket server for WeftNetworking's real-transport tests.

Binds 127.0.0.1 on ports chosen by the kernel and prints one line:
    PORTS http=<port> ws=<port> closed=<port>
`closed` is a port that was bound and released, so connecting to it is refused.

Routes (HTTP):
    GET  /ok                 -> 200 {"id": 1, "name": "weft", "created": "2024-05-01T12:00:00Z"}
    GET  /missing            -> 404 "no route /missing"
    GET  /flaky?key=K&fail=N -> 500 for the first N calls with key K, then 200 {"calls": n}
    GET  /slow?ms=M          -> waits M ms, then 200
    GET  /large?bytes=B      -> 200 with B bytes (a repeating pattern)
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

WebSocket (/ on the ws port): echoes text frames, answers pings, closes on close.

The server stops by itself when stdin closes (the test process died or closed it),
when its parent changes, or after --lifetime seconds (default 120).
"""
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

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


def read_exact(conn, count):
    data = b""
    while len(data) < count:
        chunk = conn.recv(count - len(data))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data


def send_frame(conn, opcode, payload):
    header = bytes([0x80 | opcode])
    if len(payload) < 126:
        header += bytes([len(payload)])
    elif len(payload) < 65536:
        header += bytes([126]) + struct.pack("!H", len(payload))
    else:
        header += bytes([127]) + struct.pack("!Q", len(payload))
    conn.sendall(header + payload)


def websocket_session(conn):
    try:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(4096)
            if not chunk:
                return
            request += chunk
        headers = {}
        for line in request.decode("latin-1").split("\r\n")[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        key = headers.get("sec-websocket-key", "")
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        conn.sendall(
            (
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n" % accept
            ).encode()
        )
        while True:
            first, second = read_exact(conn, 2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", read_exact(conn, 2))[0]
            elif length == 127:
                length = struct.unpack("!Q", read_exact(conn, 8))[0]
            mask = read_exact(conn, 4) if second & 0x80 else b"\x00\x00\x00\x00"
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read_exact(conn, length)))
            if opcode == 0x8:
                send_frame(conn, 0x8, payload[:2])
                return
            if opcode == 0x9:
                send_frame(conn, 0xA, payload)
            elif opcode in (0x1, 0x2):
                send_frame(conn, opcode, payload)
    except (ConnectionError, OSError):
        pass
    finally:
        conn.close()


def serve_websocket(listener):
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=websocket_session, args=(conn,), daemon=True).start()


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
    ws = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ws.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ws.bind(("127.0.0.1", 0))
    ws.listen(16)
    closed = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    threading.Thread(target=watchdog, args=(lifetime,), daemon=True).start()
    threading.Thread(target=stdin_watch, daemon=True).start()
    threading.Thread(target=serve_websocket, args=(ws,), daemon=True).start()
    print(
        "PORTS http=%d ws=%d closed=%d" % (http.server_address[1], ws.getsockname()[1], closed_port),
        flush=True,
    )
    http.serve_forever()


if __name__ == "__main__":
    main()
