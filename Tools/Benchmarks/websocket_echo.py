#!/usr/bin/env python3
"""WebSocket echo benchmark peer for `weft-bench websocket` (the `websockets` package).

  websocket_echo.py serve
      Serves an echo endpoint on 127.0.0.1 (kernel-chosen port), prints "PORT N", and runs
      until stdin closes or its parent exits.
  websocket_echo.py client --port N --count N [--warmup N]
      Sends --count small text messages one at a time to ws://127.0.0.1:N/, awaiting each
      echo, and prints "RESULT messages_per_second=X p50_us=X p99_us=X".
Exits 3 if `websockets` is not installed.
"""
import argparse
import asyncio
import os
import sys
import threading
import time

try:
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve
except ImportError:
    print("NO-WEBSOCKETS the python 'websockets' package is not installed", flush=True)
    sys.exit(3)


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def wait_for_stdin_or_parent(parent):
    closed = threading.Event()

    def read_stdin():
        sys.stdin.buffer.read()
        closed.set()

    threading.Thread(target=read_stdin, daemon=True).start()
    while not closed.is_set() and os.getppid() == parent:
        await asyncio.sleep(0.2)


async def run_server():
    parent = os.getppid()
    async with serve(echo, "127.0.0.1", 0, ping_interval=None, max_size=None) as server:
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await wait_for_stdin_or_parent(parent)


def percentile(sorted_values, fraction):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


async def run_client(port, count, warmup):
    async with connect(f"ws://127.0.0.1:{port}/", ping_interval=None, max_size=None) as ws:
        for i in range(warmup):
            await ws.send(f"warmup {i}")
            await ws.recv()
        round_trips = []
        start = time.perf_counter_ns()
        for i in range(count):
            sent = time.perf_counter_ns()
            await ws.send(f"message {i}")
            await ws.recv()
            round_trips.append(time.perf_counter_ns() - sent)
        elapsed = time.perf_counter_ns() - start
    round_trips.sort()
    print(
        f"RESULT messages_per_second={count / (elapsed / 1e9):.1f} "
        f"p50_us={percentile(round_trips, 0.50) / 1000:.1f} "
        f"p99_us={percentile(round_trips, 0.99) / 1000:.1f}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["serve", "client"])
    parser.add_argument("--port", type=int)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=1_000)
    args = parser.parse_args()
    if args.mode == "serve":
        asyncio.run(run_server())
    else:
        asyncio.run(run_client(args.port, args.count, args.warmup))


if __name__ == "__main__":
    main()
