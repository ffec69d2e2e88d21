#!/usr/bin/env python3
"""A tiny HealthAPI server on 127.0.0.1 for AppFeature's live-configuration test.

Binds a port the kernel chooses and prints one line:  PORT <port> WS <ws-port>
Python's standard library only: the WebSocket side is weft_websocket (TestProcesses' shared
module, on PYTHONPATH when TestProcesses starts this script).

Routes (JSON, dates ISO 8601 with fractional seconds, as HealthAPI.coding writes them):
    POST /auth/login      ada@example.com / correct-horse -> session; else 401 invalid_credentials
    POST /auth/logout     -> 204 (revokes the bearer token)
    GET  /metrics         bearer; ?from&to -> the metrics in range (one seeded: heart rate 64, 1 h ago)
    PUT  /metrics/<id>    bearer; stores the metric; a repeated Idempotency-Key is answered from
                          the store without applying it again
    GET  /insights        bearer; ?limit -> the insights (one seeded)
    GET  /stats           -> {"applied": n, "replayed": m, "requests": r, "realtimeClients": c}
    POST /realtime/push   {"title", "body"} -> adds an insight and pushes it (InsightDTO JSON,
                          a text message) to every open WebSocket; answers {"delivered": n}

WebSocket (weft_websocket, its own asyncio loop on a thread, a second port):
    ws://127.0.0.1:<ws-port>/realtime   the insight feed; the server only pushes

Stops by itself when stdin closes, when its parent changes, or after --lifetime seconds.
"""
import json
import os
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import asyncio
import uuid
from urllib.parse import parse_qs, urlparse

from weft_websocket import ConnectionClosed, port_of
from weft_websocket import serve as websocket_serve

LOCK = threading.Lock()
TOKEN = "live-token-1"
REVOKED = set()
STORED = {}
METRICS = {}
STATS = {"applied": 0, "replayed": 0, "requests": 0}
REALTIME = {"loop": None, "clients": set()}


def iso(moment):
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + \
        "%03dZ" % (moment.microsecond // 1000)


def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


NOW = datetime.now(timezone.utc)
SEED_ID = "00000000-0000-4000-8000-000000000001"
METRICS[SEED_ID] = {
    "id": SEED_ID, "type": "heartRate", "value": 64, "unit": "bpm",
    "date": iso(NOW - timedelta(hours=1)), "source": "Seed",
    "createdAt": iso(NOW - timedelta(hours=1)),
}
INSIGHTS = [{
    "id": "00000000-0000-4000-8000-000000000002", "title": "Welcome",
    "body": "Your first insight.", "date": iso(NOW - timedelta(hours=2)), "priority": "low",
}]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def reply(self, status, value=None):
        body = b"" if value is None else json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"null")

    def authorized(self):
        header = self.headers.get("Authorization") or ""
        token = header[len("Bearer "):] if header.startswith("Bearer ") else None
        return token == TOKEN and token not in REVOKED

    def refuse(self, status, code, message):
        self.reply(status, {"code": code, "message": message})

    def do_POST(self):
        with LOCK:
            STATS["requests"] += 1
        path = urlparse(self.path).path
        if path == "/auth/login":
            credentials = self.body()
            if credentials == {"email": "ada@example.com", "password": "correct-horse"}:
                expires = datetime.now(timezone.utc) + timedelta(hours=1)
                self.reply(200, {"token": TOKEN, "userID": "user-ada", "expiresAt": iso(expires)})
            else:
                self.refuse(401, "invalid_credentials", "the email or password is incorrect")
        elif path == "/auth/logout":
            header = self.headers.get("Authorization") or ""
            with LOCK:
                REVOKED.add(header[len("Bearer "):])
            self.reply(204)
        elif path == "/realtime/push":
            self.push(self.body() or {})
        else:
            self.refuse(404, "not_found", "no route " + path)

    def push(self, request):
        loop = REALTIME["loop"]
        insight = {
            "id": str(uuid.uuid4()), "title": request.get("title", "Pushed"),
            "body": request.get("body", "A pushed insight."),
            "date": iso(datetime.now(timezone.utc)), "priority": "high",
        }
        with LOCK:
            INSIGHTS.insert(0, insight)
        future = asyncio.run_coroutine_threadsafe(broadcast(json.dumps(insight)), loop)
        self.reply(200, {"delivered": future.result(timeout=10)})

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        with LOCK:
            STATS["requests"] += 1
        if url.path == "/stats":
            with LOCK:
                self.reply(200, dict(STATS, realtimeClients=len(REALTIME["clients"])))
            return
        if not self.authorized():
            self.refuse(401, "invalid_token", "the bearer token is missing or revoked")
            return
        if url.path == "/metrics":
            start = parse(query["from"]) if "from" in query else datetime.min.replace(tzinfo=timezone.utc)
            end = parse(query["to"]) if "to" in query else datetime.max.replace(tzinfo=timezone.utc)
            with LOCK:
                found = [m for m in METRICS.values() if start <= parse(m["date"]) <= end]
            self.reply(200, sorted(found, key=lambda m: (m["date"], m["id"])))
        elif url.path == "/insights":
            self.reply(200, INSIGHTS[: int(query.get("limit", "5"))])
        else:
            self.refuse(404, "not_found", "no route " + url.path)

    def do_PUT(self):
        with LOCK:
            STATS["requests"] += 1
        path = urlparse(self.path).path
        if not self.authorized():
            self.refuse(401, "invalid_token", "the bearer token is missing or revoked")
            return
        if not path.startswith("/metrics/"):
            self.refuse(404, "not_found", "no route " + path)
            return
        key = self.headers.get("Idempotency-Key")
        metric = self.body()
        with LOCK:
            if key is not None and key in STORED:
                STATS["replayed"] += 1
                answer = STORED[key]
            else:
                METRICS[metric["id"]] = metric
                STATS["applied"] += 1
                answer = metric
                if key is not None:
                    STORED[key] = metric
        self.reply(200, answer)


async def broadcast(text):
    delivered = 0
    for client in list(REALTIME["clients"]):
        try:
            await client.send(text)
            delivered += 1
        except Exception:  # a client closing meanwhile: it gets the insight on its next load
            pass
    return delivered


async def realtime_handler(ws):
    if ws.request.path != "/realtime":
        await ws.close(4004, "no such feed: " + ws.request.path)
        return
    REALTIME["clients"].add(ws)
    try:
        async for _ in ws:  # the app sends nothing; this waits for the close
            pass
    except ConnectionClosed:
        pass  # closed without a closing handshake (the app's socket was shut down)
    finally:
        REALTIME["clients"].discard(ws)


def start_realtime():
    """Starts the WebSocket server on its own loop and thread; returns its port."""
    started = threading.Event()
    port = [0]

    async def run():
        server = await websocket_serve(realtime_handler, "127.0.0.1", 0)
        port[0] = port_of(server)
        REALTIME["loop"] = asyncio.get_running_loop()
        started.set()
        await asyncio.Future()  # until the process exits

    threading.Thread(target=lambda: asyncio.run(run()), daemon=True).start()
    started.wait(10)
    return port[0]


def watch_parent(parent, lifetime):
    started = time.time()
    while True:
        if os.getppid() != parent or time.time() - started > lifetime:
            os._exit(0)
        time.sleep(0.2)


def watch_stdin():
    sys.stdin.read()
    os._exit(0)


def main():
    lifetime = 120
    if "--lifetime" in sys.argv:
        lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=watch_parent, args=(os.getppid(), lifetime), daemon=True).start()
    threading.Thread(target=watch_stdin, daemon=True).start()
    ws_port = start_realtime()
    print("PORT %d WS %d" % (server.server_address[1], ws_port), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
