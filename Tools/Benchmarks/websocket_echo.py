#!/usr/bin/env python3
"""WebSocket echo benchmark peer for `weft-bench websocket` (the `websockets` package).

  websocket_echo.py serve
      Serves a WebSocket echo endpoint (websockets' defaults: permessage-deflate accepted when
      offered), a plain TCP echo (the floor: the same bytes with no WebSocket framing) and a
      counting relay to the WebSocket port (bytes on the wire; a connection to the stats port
      reads "up=N down=M" for the relay's connections so far) on 127.0.0.1, prints
      "PORT N TCP M RELAY R STATS S", and runs until stdin closes or its parent exits.
  websocket_echo.py client --port N --count N [--warmup N]
      Sends --count small text messages one at a time to ws://127.0.0.1:N/, awaiting each
      echo, and prints "RESULT messages_per_second=X p50_us=X p99_us=X".
  websocket_echo.py shape --port N --shape NAME --count N --size BYTES [--fragments N]
      One throughput shape with the websockets client: --count round trips of one message of
      --size bytes (binary, or text when NAME starts with "text"; sent in --fragments frames),
      each echo awaited and checked; prints "RESULT seconds=X cpu=X" (wall and CPU time).
Exits 3 if `websockets` is not installed (the benchmark runs it with WEFT_BENCH_PYTHON, a
python with websockets: python3 -m venv /tmp/weft-bench && /tmp/weft-bench/bin/pip install
websockets).
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


async def tcp_echo(reader, writer):
    while True:
        data = await reader.read(1 << 20)
        if not data:
            break
        writer.write(data)
        await writer.drain()
    writer.close()


RELAYED = {"up": 0, "down": 0}


async def pump(reader, writer, key):
    while True:
        data = await reader.read(1 << 16)
        if not data:
            break
        RELAYED[key] += len(data)
        writer.write(data)
        await writer.drain()
    writer.close()


async def run_server():
    parent = os.getppid()
    async with serve(echo, "127.0.0.1", 0, ping_interval=None, max_size=None) as server:
        port = server.sockets[0].getsockname()[1]
        floor = await asyncio.start_server(tcp_echo, "127.0.0.1", 0)

        async def relay(reader, writer):
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
            await asyncio.gather(pump(reader, upstream_writer, "up"),
                                 pump(upstream_reader, writer, "down"),
                                 return_exceptions=True)

        async def stats(reader, writer):
            writer.write(f"up={RELAYED['up']} down={RELAYED['down']}\n".encode())
            await writer.drain()
            writer.close()

        relayed = await asyncio.start_server(relay, "127.0.0.1", 0)
        counts = await asyncio.start_server(stats, "127.0.0.1", 0)
        print(f"PORT {port} TCP {floor.sockets[0].getsockname()[1]} "
              f"RELAY {relayed.sockets[0].getsockname()[1]} "
              f"STATS {counts.sockets[0].getsockname()[1]}", flush=True)
        await wait_for_stdin_or_parent(parent)


def shape_message(text, size):
    """The message a shape sends: the same bytes as the Swift side makes."""
    if text:
        unit = '{"id":1,"title":"Resting heart rate","body":"64 bpm, steady","note":"é"},'
        return (unit * (size // len(unit.encode()) + 1)).encode()[:size].decode("utf-8", "ignore")
    return bytes(i * 31 % 251 for i in range(251)) * (size // 251) + bytes(size % 251)


async def run_shape(port, shape, count, size, fragments):
    text = shape.startswith("text")
    message = shape_message(text, size)
    async with connect(f"ws://127.0.0.1:{port}/", ping_interval=None, max_size=None,
                       compression=None) as ws:
        await ws.send(message)  # warm-up round trip
        await ws.recv()
        start = time.perf_counter()
        cpu_start = time.process_time()
        for _ in range(count):
            if fragments > 1:
                step = -(-len(message) // fragments)
                await ws.send([message[i:i + step] for i in range(0, len(message), step)])
            else:
                await ws.send(message)
            echo = await ws.recv()
            if len(echo) != len(message):
                raise SystemExit(f"echo of {len(echo)} instead of {len(message)}")
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
    print(f"RESULT seconds={elapsed:.6f} cpu={cpu:.6f}", flush=True)


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
    parser.add_argument("mode", choices=["serve", "client", "shape"])
    parser.add_argument("--port", type=int)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=1_000)
    parser.add_argument("--shape", default="binary")
    parser.add_argument("--size", type=int, default=65536)
    parser.add_argument("--fragments", type=int, default=1)
    args = parser.parse_args()
    if args.mode == "serve":
        asyncio.run(run_server())
    elif args.mode == "shape":
        asyncio.run(run_shape(args.port, args.shape, args.count, args.size, args.fragments))
    else:
        asyncio.run(run_client(args.port, args.count, args.warmup))


if __name__ == "__main__":
    main()
