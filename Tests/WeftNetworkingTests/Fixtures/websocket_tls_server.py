#!/usr/bin/env python3
"""A real wss:// server (the `websockets` package over python's ssl) for the TLS tests of the
POSIX WebSocket client.

Makes two throwaway self-signed certificates with the `openssl` command line tool in a
temporary folder (removed on exit):
  cert.pem   CN=127.0.0.1, subjectAltName IP:127.0.0.1, DNS:localhost (the `tls` port)
  other.pem  CN=elsewhere.invalid, DNS:elsewhere.invalid (served on the `wrongname` port)
then prints one line
  "READY tls=N wrongname=N plain=N cert=/path/cert.pem other=/path/other.pem"
and serves until stdin closes, its parent changes or --lifetime seconds pass. The `plain` port
is the same WebSocket server without TLS. Paths (every port):
  /echo   echoes every message          /close  closes with 4001 "bye"
  /big    sends one 2 MiB binary message /silent waits for the client to close
  /last-close sends the close code /silent last saw
  /sni    sends the TLS server name (SNI) the client sent, "None" for none
Exits 3 ("NO-WEBSOCKETS ...") without `websockets`, 4 ("NO-OPENSSL ...") without `openssl`.
"""
import argparse
import asyncio
import logging
import os
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading

try:
    from websockets.asyncio.server import serve
except ImportError:
    print("NO-WEBSOCKETS the python 'websockets' package is not installed", flush=True)
    sys.exit(3)

if shutil.which("openssl") is None:
    print("NO-OPENSSL the openssl command line tool is not installed", flush=True)
    sys.exit(4)


last_close = {"code": None}
server_names = {}  # id of a connection's SSL object -> the SNI its client sent


async def handler(ws):
    path = ws.request.path
    if path == "/close":
        await ws.close(4001, "bye")
        return
    elif path == "/big":
        await ws.send(bytes(range(256)) * (8 * 1024))
    elif path == "/silent":
        await ws.wait_closed()
        last_close["code"] = ws.close_code  # 1006 when the client sent no close frame
        return
    elif path == "/last-close":
        await ws.send(str(last_close["code"]))
        return
    elif path == "/sni":
        ssl_object = ws.transport.get_extra_info("ssl_object")
        await ws.send(str(server_names.get(id(ssl_object))))
        return
    async for message in ws:
        await ws.send(message)


def make_certificate(folder, name, common_name, alt_name):
    cert = os.path.join(folder, f"{name}.pem")
    key = os.path.join(folder, f"{name}-key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", f"/CN={common_name}",
         "-addext", f"subjectAltName={alt_name}"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def remember_server_name(ssl_object, name, _context):
        server_names[id(ssl_object)] = name

    context.sni_callback = remember_server_name
    return cert, context


async def watch_stdin_and_parent(parent):
    stdin_closed = threading.Event()

    def read_stdin():
        sys.stdin.buffer.read()
        stdin_closed.set()

    threading.Thread(target=read_stdin, daemon=True).start()
    while not stdin_closed.is_set():
        if os.getppid() != parent:
            return
        await asyncio.sleep(0.2)


async def main(folder):
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()
    parent = os.getppid()
    # Clients that fail a handshake on purpose (untrusted certificates) are expected.
    logging.getLogger("websockets").setLevel(logging.CRITICAL)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    # SIGTERM ends the server at once, removing the certificates first.
    signal.signal(
        signal.SIGTERM, lambda *_: (shutil.rmtree(folder, ignore_errors=True), os._exit(0)))
    cert, good = make_certificate(folder, "cert", "127.0.0.1", "IP:127.0.0.1,DNS:localhost")
    other, wrong = make_certificate(
        folder, "other", "elsewhere.invalid", "DNS:elsewhere.invalid")
    options = dict(ping_interval=None, max_size=None)
    async with serve(handler, "127.0.0.1", 0, ssl=good, **options) as tls, \
            serve(handler, "127.0.0.1", 0, ssl=wrong, **options) as wrongname, \
            serve(handler, "127.0.0.1", 0, **options) as plain:
        ports = [s.sockets[0].getsockname()[1] for s in (tls, wrongname, plain)]
        print(f"READY tls={ports[0]} wrongname={ports[1]} plain={ports[2]} "
              f"cert={cert} other={other}", flush=True)
        try:
            await asyncio.wait_for(watch_stdin_and_parent(parent), args.lifetime)
        except asyncio.TimeoutError:
            pass


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="weft-wss-") as folder:
        asyncio.run(main(folder))
