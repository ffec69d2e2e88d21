#!/usr/bin/env python3
"""A real wss:// server (weft_websocket over python's ssl: the standard library only) for the
TLS tests of the POSIX WebSocket client.

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
Prints "NO-OPENSSL <how to install it>" and exits 4 without the `openssl` tool.
weft_websocket.py is found on PYTHONPATH (TestProcesses sets it).
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

from weft_websocket import port_of, run_until_released, serve

if shutil.which("openssl") is None:
    print("NO-OPENSSL the openssl command line tool is not on PATH: "
          "sudo apt-get install -y openssl", flush=True)
    sys.exit(4)


last_close = {"code": None}
server_names = {}  # id of a connection's SSL object -> the SNI its client sent


async def handler(ws):
    path = ws.path
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


async def main(folder):
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=60)
    args = parser.parse_args()
    # Clients that fail a handshake on purpose (untrusted certificates) are expected.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    asyncio.get_running_loop().set_exception_handler(lambda *_: None)
    # SIGTERM ends the server at once, removing the certificates first.
    signal.signal(
        signal.SIGTERM, lambda *_: (shutil.rmtree(folder, ignore_errors=True), os._exit(0)))
    cert, good = make_certificate(folder, "cert", "127.0.0.1", "IP:127.0.0.1,DNS:localhost")
    other, wrong = make_certificate(
        folder, "other", "elsewhere.invalid", "DNS:elsewhere.invalid")
    tls = await serve(handler, "127.0.0.1", 0, ssl=good)
    wrongname = await serve(handler, "127.0.0.1", 0, ssl=wrong)
    plain = await serve(handler, "127.0.0.1", 0)
    print(f"READY tls={port_of(tls)} wrongname={port_of(wrongname)} plain={port_of(plain)} "
          f"cert={cert} other={other}", flush=True)
    await run_until_released(args.lifetime)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="weft-wss-") as folder:
        asyncio.run(main(folder))
