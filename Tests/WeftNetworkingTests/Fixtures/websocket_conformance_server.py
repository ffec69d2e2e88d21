#!/usr/bin/env python3
"""A WebSocket server that breaks RFC 6455 on purpose, for the client's conformance tests
(weft_websocket: Python's standard library only; the shapes follow Autobahn|Testsuite's case
descriptions).

Prints "PORTS ws=N", then serves until stdin closes, its parent changes or --lifetime seconds
pass. Each case path records what the client did in a report, which `/report?case=PATH`
sends as JSON text once it exists (waiting up to 10 s): "echoes" (messages the client sent
back), "close" and "reason" (the client's close frame; 1006 for none), and per case below.

  /subprotocol/unoffered  answers Sec-WebSocket-Protocol: chat.v9 whatever was offered
  /subprotocol/echo       chooses the last subprotocol offered; sends JSON {subprotocol,
                          authorization, origin} (what the handshake carried)
  /bad/rsv /bad/opcode /bad/continuation /bad/control-length /bad/close-code
  /bad/close-utf8 /bad/new-message-in-fragmented
                          sends "before", then the bad frame and a ping, in one write
  /utf8/fragment          a text message: "κόσμε" (not final), then a fragment with an invalid
                          byte in its middle; waits 3 s for the client's close before sending
                          the last fragment ("closeBeforeFinal")
  /utf8/partial-frame     20 bytes of a 64-byte text frame, the 11th invalid; waits 3 s for the
                          client's close before sending the rest ("closeBeforeFinal")
  /utf8/after-messages/N  the text "one", the text "two", then a text message whose second
                          fragment makes its UTF-8 invalid ("κό" + 0xCE, then 0xFF "end"); N mod
                          3 picks the writes: all in one, "one" then the rest, each frame alone
  /close-after-message    sends "last words" and a close (4002 "done") in one write
  /fragmented-with-ping   "frag" + "mented" with a ping between the fragments ("pong": the
                          payload answered)
  /ping-125               a ping with 125 bytes of payload ("pong": answered with them)
  /control-frames         a ping "p1", an unsolicited pong "u1", then the text "done"
  /record-close           waits for the client's close
  /frames                 counts the frames of each message the client sends ("frames")
  /deflate/echo           permessage-deflate with context takeover both ways; echoes
                          ("compressed": whether each message from the client was)
  /deflate/no-context     no context takeover either way (a client that kept its context
                          would make the server's fresh decompressor fail: close 1002)
  /deflate/window-10      both windows 10 bits (a client compressing with a larger window
                          fails the server's inflate: close 1002)
  /deflate/bomb           sends one compressed message of 8 MiB of zeros (about 8 KiB)
  /deflate/unknown-param  answers "permessage-deflate; mystery=1"
"""
import argparse
import asyncio
import json
import os
import signal
import zlib
from urllib.parse import parse_qs, urlparse

from weft_websocket import (BINARY, CLOSE, CONTINUATION, PING, PONG, TEXT, close_payload,
                            frame, port_of, run_until_released, serve)

REPORTS = {}
REPORTED = {}


def report(case, **fields):
    REPORTS[case] = fields
    event = REPORTED.setdefault(case, asyncio.Event())
    event.set()


async def collect(ws):
    """The client's echoes until it closes."""
    echoes = []
    async for message in ws:
        echoes.append(message if isinstance(message, str) else message.hex())
    return echoes


BAD = {
    "/bad/rsv": frame(True, TEXT, b"rsv", rsv=1),
    "/bad/opcode": frame(True, 0x3, b"reserved opcode"),
    "/bad/continuation": frame(True, CONTINUATION, b"no message to continue"),
    "/bad/control-length": frame(True, PING, b"x" * 126),
    "/bad/close-code": frame(True, CLOSE, close_payload(1005)),
    "/bad/close-utf8": frame(True, CLOSE, b"\x03\xe8\xff\xfe"),
    "/bad/new-message-in-fragmented": frame(False, TEXT, b"one") + frame(True, TEXT, b"two"),
}


DEFLATE = {
    "/deflate/echo": {},
    "/deflate/bomb": {},
    "/deflate/no-context": {"server_no_context_takeover": True,
                            "client_no_context_takeover": True},
    "/deflate/window-10": {"server_max_window_bits": 10, "client_max_window_bits": 10},
}


def select_deflate(request):
    return DEFLATE.get(request.path)


def extra_headers(request):
    if request.path == "/deflate/unknown-param":
        return [("Sec-WebSocket-Extensions", "permessage-deflate; mystery=1")]
    return []


def select_subprotocol(request):
    if request.path == "/subprotocol/unoffered":
        return "chat.v9"
    offered = request.offered_subprotocols()
    if request.path == "/subprotocol/echo" and offered:
        return offered[-1]
    return None


async def handler(ws):
    url = urlparse(ws.path)
    path = url.path
    if path == "/report":
        case = parse_qs(url.query)["case"][0]
        event = REPORTED.setdefault(case, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), 10)
            await ws.send(json.dumps(REPORTS[case]))
        except asyncio.TimeoutError:
            await ws.send(json.dumps({"error": f"no report for {case}"}))
        return
    if path == "/subprotocol/echo":
        request = ws.request
        await ws.send(json.dumps({
            "subprotocol": ws.subprotocol,
            "authorization": request.header("authorization"),
            "origin": request.header("origin"),
        }))
        await collect(ws)
        return
    if path in BAD:
        await ws.send_raw(frame(True, TEXT, b"before") + BAD[path] + frame(True, PING, b"after"))
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason)
        return
    if path in ("/utf8/fragment", "/utf8/partial-frame"):
        if path == "/utf8/fragment":
            await ws.send_raw(frame(False, TEXT, "κόσμε".encode()) +
                              frame(False, CONTINUATION, b"ab\xf8\x88cd"))
            rest = frame(True, CONTINUATION, b"end")
        else:
            payload = b"0123456789\xff" + b"x" * 53
            whole = frame(True, TEXT, payload)
            await ws.send_raw(whole[:4 + 20])  # 4 header bytes (length 64 < 126: 2) + 20
            rest = whole[4 + 20:]
        try:
            await asyncio.wait_for(ws.wait_closed(), 3)
            before_final = True
        except asyncio.TimeoutError:
            before_final = False
            await ws.send_raw(rest)
            await asyncio.wait_for(ws.wait_closed(), 3)
        report(path, close=ws.close_code, reason=ws.close_reason, closeBeforeFinal=before_final)
        return
    if path.startswith("/utf8/after-messages/"):
        frames = [frame(True, TEXT, b"one"), frame(True, TEXT, b"two"),
                  frame(False, TEXT, "κό".encode() + b"\xce"),
                  frame(True, CONTINUATION, b"\xffend")]
        shape = int(path.rsplit("/", 1)[1]) % 3
        writes = ([b"".join(frames)] if shape == 0 else
                  [frames[0], b"".join(frames[1:])] if shape == 1 else frames)
        for data in writes:
            await ws.send_raw(data)
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason)
        return
    if path == "/close-after-message":
        await ws.send_raw(frame(True, TEXT, b"last words") +
                          frame(True, CLOSE, close_payload(4002, "done")))
        ws._close_sent = True  # the close frame above starts the closing handshake
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason)
        return
    if path == "/fragmented-with-ping":
        await ws.send_raw(frame(False, TEXT, b"frag") + frame(True, PING, b"mid") +
                          frame(True, CONTINUATION, b"mented"))
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason,
               pong=b"mid" in ws.pongs_received)
        return
    if path == "/ping-125":
        payload = bytes(range(125))
        await ws.send_frame(True, PING, payload)
        await ws.send("pinged")
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason,
               pong=payload in ws.pongs_received)
        return
    if path == "/control-frames":
        await ws.send_raw(frame(True, PING, b"p1") + frame(True, PONG, b"u1") +
                          frame(True, TEXT, b"done"))
        await collect(ws)
        return
    if path == "/record-close":
        await ws.wait_closed()
        report(path, close=ws.close_code, reason=ws.close_reason)
        return
    if path in ("/deflate/echo", "/deflate/no-context", "/deflate/window-10"):
        echoes = []
        async for message in ws:
            echoes.append(message if isinstance(message, str) else message.hex())
            await ws.send(message)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason,
               compressed=ws.compressed_in)
        return
    if path == "/deflate/bomb":
        bomb = zlib.compressobj(wbits=-15)
        payload = bomb.compress(bytes(8 << 20)) + bomb.flush(zlib.Z_SYNC_FLUSH)
        await ws.send_frame(True, BINARY, payload[:-4], rsv=4)
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, reason=ws.close_reason)
        return
    if path == "/frames":
        echoes = await collect(ws)
        report(path, echoes=echoes, close=ws.close_code, frames=ws.frames_per_message)
        return
    await ws.close(4004, "no such case: " + path)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = await serve(handler, "127.0.0.1", 0, select_subprotocol=select_subprotocol,
                         extra_headers=extra_headers, deflate=select_deflate)
    print(f"PORTS ws={port_of(server)}", flush=True)
    await run_until_released(args.lifetime)


if __name__ == "__main__":
    asyncio.run(main())
