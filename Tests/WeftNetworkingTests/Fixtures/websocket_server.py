#!/usr/bin/env python3
"""A real WebSocket server (weft_websocket: Python's standard library only) for the POSIX
WebSocket client's tests.

Prints one line, "PORTS ws=N garbage=N stall=N", then serves until stdin closes, its parent
changes or --lifetime seconds pass. Paths on the ws port:
  /echo   echoes every message          /push   sends "push 1", "push 2", then echoes
  /ping   pings, then sends "pong seen"  /close  closes with 4001 "bye"
  /silent waits for the client to close  /last-close sends the close code /silent last saw
  /big    sends one 2 MiB binary message /silent accepts and never sends anything
The garbage port answers any connection with a non-HTTP line; the stall port accepts and
never answers. weft_websocket.py is found on PYTHONPATH (TestProcesses sets it).
"""
import argparse
import asyncio
import os
import signal

from weft_websocket import port_of, run_until_released, serve

last_close = {"code": None}


async def handler(ws):
    path = ws.path
    if path == "/push":
        await ws.send("push 1")
        await ws.send("push 2")
    elif path == "/ping":
        waiter = await ws.ping(b"weft")
        await waiter
        await ws.send("pong seen")
    elif path == "/close":
        await ws.close(4001, "bye")
        return
    elif path == "/big":
        await ws.send(bytes(2 * 1024 * 1024))
    elif path == "/silent":
        await ws.wait_closed()
        # The code of the client's close frame (1006 when the client sent none).
        last_close["code"] = ws.close_code
        return
    elif path == "/last-close":
        await ws.send(str(last_close["code"]))
        return
    async for message in ws:
        await ws.send(message)


async def garbage(reader, writer):
    writer.write(b"SSH-2.0-NotAWebSocketServer\r\n")
    await writer.drain()
    await reader.read()  # until the client hangs up


async def stall(reader, writer):
    await reader.read()  # never answers; ends when the client hangs up


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60)
    parser.add_argument("--ws-port", type=int, default=0, help="0: the kernel chooses")
    args = parser.parse_args()
    # SIGTERM ends the server at once (no graceful wait for open connections' handlers).
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = await serve(handler, "127.0.0.1", args.ws_port, reuse_address=True)
    g = await asyncio.start_server(garbage, "127.0.0.1", 0)
    s = await asyncio.start_server(stall, "127.0.0.1", 0)
    print(f"PORTS ws={port_of(server)} garbage={port_of(g)} stall={port_of(s)}", flush=True)
    await run_until_released(args.lifetime)


if __name__ == "__main__":
    asyncio.run(main())
