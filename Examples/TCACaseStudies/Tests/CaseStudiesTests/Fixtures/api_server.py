#!/usr/bin/env python3
"""Loopback HTTP server for the case studies' live API clients: Open-Meteo's geocoding and
forecast endpoints and numbersapi.com's facts, in their JSON formats, python's standard
library only.

Binds 127.0.0.1 on a port the kernel chooses and prints one line, `PORT <port>`. Stops when
its stdin closes (the test is done, or died) or after --lifetime seconds (default 120).

    GET /v1/search?name=N        -> {"results": [...]}: the places whose name contains N
                                    (case-insensitive), with fields the client ignores;
                                    {"generationtime_ms": ...} alone when none match, as
                                    Open-Meteo answers
    GET /v1/forecast?latitude=..&longitude=..&daily=temperature_2m_max,temperature_2m_min
        &timeformat=unixtime&timezone=GMT
                                 -> three days of temperatures; 400 {"error": true,
                                    "reason": ...} when a parameter is missing or different
    GET /<number>?json           -> {"text": "<number> is ...", "number": ..., "found": true}
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

PLACES = [
    {"id": 5128581, "name": "New York", "latitude": 40.71427, "longitude": -74.00597,
     "country": "United States", "admin1": "New York", "elevation": 10.0, "timezone": "America/New_York"},
    {"id": 2988507, "name": "Paris", "latitude": 48.85341, "longitude": 2.3488,
     "country": "France", "admin1": "Île-de-France", "elevation": 42.0, "timezone": "Europe/Paris"},
    {"id": 4717560, "name": "Paris", "latitude": 33.66094, "longitude": -95.55551,
     "country": "United States", "elevation": 183.0, "timezone": "America/Chicago"},
]
FORECAST_PARAMETERS = {"daily": "temperature_2m_max,temperature_2m_min", "timeformat": "unixtime",
                       "timezone": "GMT"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def answer(self, status, value):
        body = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        query = {key: values[0] for key, values in parse_qs(url.query, keep_blank_values=True).items()}
        if url.path == "/v1/search":
            name = query.get("name", "").lower()
            found = [place for place in PLACES if name and name in place["name"].lower()]
            self.answer(200, {"results": found, "generationtime_ms": 0.5} if found
                        else {"generationtime_ms": 0.5})
        elif url.path == "/v1/forecast":
            wrong = [key for key, value in FORECAST_PARAMETERS.items() if query.get(key) != value]
            wrong += [key for key in ("latitude", "longitude") if key not in query]
            if wrong:
                self.answer(400, {"error": True, "reason": f"missing or unexpected: {', '.join(wrong)}"})
                return
            latitude = float(query["latitude"])
            self.answer(200, {
                "latitude": latitude, "longitude": float(query["longitude"]),
                "daily_units": {"time": "unixtime", "temperature_2m_max": "°C", "temperature_2m_min": "°C"},
                "daily": {"time": [1733529600, 1733616000, 1733702400],
                          "temperature_2m_max": [round(latitude / 10, 1), 7.5, 8.0],
                          "temperature_2m_min": [1.0, 2.5, 3.0]},
            })
        elif url.path[1:].lstrip("-").isdigit() and "json" in query:
            number = int(url.path[1:])
            self.answer(200, {"text": f"{number} is the number of the test", "number": number,
                              "found": True, "type": "trivia"})
        else:
            self.answer(404, {"error": True, "reason": f"no route {url.path}"})


def main():
    lifetime = float(sys.argv[sys.argv.index("--lifetime") + 1]) if "--lifetime" in sys.argv else 120
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    stopped = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stopped.set()), daemon=True).start()
    stopped.wait(lifetime)
    server.shutdown()


if __name__ == "__main__":
    main()
