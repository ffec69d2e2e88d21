"""A small RFC 6455 WebSocket server on Python's standard library (asyncio), for Weft's test
fixtures: no third-party package.

The one owner of the server side every fixture speaks (Tests/TestProcesses' resources, put on
PYTHONPATH by TestProcesses' ServerProcess and ChildProcess). It does what the fixtures need:
  - the opening handshake (Sec-WebSocket-Accept from sha1/base64), subprotocol selection,
    extra response headers; a first line that is not "GET " drops the connection (a TLS
    ClientHello on a plain port);
  - framing with masked client frames required, fragmentation both ways, ping/pong (incoming
    pings answered at once, `ping()` returns a future the matching pong resolves), the
    closing handshake with codes and reasons, text validated as UTF-8 (1007 otherwise);
  - TLS through the `ssl` module (`serve(..., ssl=context)`);
  - permessage-deflate (RFC 7692) with the standard library's zlib, when a `deflate`
    callback accepts the client's offer (window bits, context takeover both ways);
  - raw frames on purpose (`send_frame`, `send_raw`) for conformance tests of the client.

    async def handler(ws):            # ws: WebSocket
        async for message in ws:      # str for text, bytes for binary
            await ws.send(message)
    server = await serve(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]

Not a general-purpose server: one reader task per connection, an unbounded message queue, no
backpressure beyond the transport's.
"""
import asyncio
import base64
import codecs
import hashlib
import os
import struct
import sys
import threading
import zlib

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

TEXT, BINARY, CONTINUATION, CLOSE, PING, PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class ConnectionClosed(Exception):
    """The connection is closed: `code` and `reason` of the peer's close frame (1005 when it
    had no code, 1006 when none arrived)."""

    def __init__(self, code, reason=""):
        super().__init__(f"connection closed: {code} {reason}")
        self.code = code
        self.reason = reason


def accept_key(key):
    """Sec-WebSocket-Accept for a Sec-WebSocket-Key (RFC 6455 §4.2.2)."""
    return base64.b64encode(hashlib.sha1(key.encode() + GUID).digest()).decode()


def apply_mask(payload, mask):
    """XORs `payload` with the 4-byte `mask` repeated (masking and unmasking are the same)."""
    if not payload:
        return b""
    n = len(payload)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(
        n, "little")


def frame(fin, opcode, payload, rsv=0, mask=None, length=None):
    """The bytes of one frame. `rsv` is the three reserved bits (0-7); `mask` a 4-byte key or
    None; `length` overrides the encoded payload length (for malformed frames)."""
    n = len(payload) if length is None else length
    head = bytearray([(0x80 if fin else 0) | (rsv & 7) << 4 | opcode])
    mask_bit = 0x80 if mask is not None else 0
    if n < 126:
        head.append(mask_bit | n)
    elif n < 65536:
        head.append(mask_bit | 126)
        head += struct.pack("!H", n)
    else:
        head.append(mask_bit | 127)
        head += struct.pack("!Q", n)
    if mask is not None:
        head += mask
        payload = apply_mask(payload, mask)
    return bytes(head) + payload


def close_payload(code, reason=""):
    return b"" if code is None else struct.pack("!H", code) + reason.encode()


class PerMessageDeflate:
    """One connection's permessage-deflate: raw deflate with the settled window bits, the
    compressor or decompressor made anew per message when its side keeps no context."""

    def __init__(self, params):
        self.server_no_context = bool(params.get("server_no_context_takeover"))
        self.client_no_context = bool(params.get("client_no_context_takeover"))
        self.server_bits = params.get("server_max_window_bits", 15)
        self.client_bits = params.get("client_max_window_bits", 15)
        self._compressor = zlib.compressobj(wbits=-self.server_bits)
        self._decompressor = zlib.decompressobj(wbits=-self.client_bits)

    def header(self):
        parts = ["permessage-deflate"]
        if self.server_no_context:
            parts.append("server_no_context_takeover")
        if self.client_no_context:
            parts.append("client_no_context_takeover")
        if self.server_bits != 15:
            parts.append(f"server_max_window_bits={self.server_bits}")
        if self.client_bits != 15:
            parts.append(f"client_max_window_bits={self.client_bits}")
        return "; ".join(parts)

    def compress(self, data):
        out = self._compressor.compress(data) + self._compressor.flush(zlib.Z_SYNC_FLUSH)
        if out.endswith(b"\x00\x00\xff\xff"):
            out = out[:-4]
        if self.server_no_context:
            self._compressor = zlib.compressobj(wbits=-self.server_bits)
        return out or b"\x00"

    def decompress(self, data):
        try:
            if self.client_bits == 15:
                out = self._decompressor.decompress(data + b"\x00\x00\xff\xff")
            else:
                # Small output steps: zlib then checks every distance against the window, so
                # a client that compressed with a larger window fails here.
                out, rest = b"", data + b"\x00\x00\xff\xff"
                while rest:
                    out += self._decompressor.decompress(rest, 64)
                    rest = self._decompressor.unconsumed_tail
        except zlib.error as error:
            raise ProtocolError(1002, f"bad compressed data: {error}")
        if self.client_no_context:
            self._decompressor = zlib.decompressobj(wbits=-self.client_bits)
        return out


class Request:
    """The client's opening handshake: `path` and `headers` (names lower-cased)."""

    def __init__(self, path, headers):
        self.path = path
        self.headers = headers

    def header(self, name, default=None):
        return self.headers.get(name.lower(), default)

    def offered_subprotocols(self):
        value = self.header("sec-websocket-protocol", "")
        return [p.strip() for p in value.split(",") if p.strip()]


class WebSocket:
    """One server-side connection. Messages arrive through `recv()` / `async for`; control
    frames are handled by the reader task."""

    def __init__(self, reader, writer, request, subprotocol, deflate=None):
        self.deflate = deflate  # PerMessageDeflate once negotiated
        self.compressed_in = []  # whether each message received was compressed
        self.reader = reader
        self.writer = writer
        self.request = request
        self.path = request.path
        self.subprotocol = subprotocol
        self.close_code = None
        self.close_reason = None
        self.pings_received = []
        self.pongs_received = []
        self.frames_per_message = []  # how many frames each message received came in
        self._messages = asyncio.Queue()
        self._pongs = {}
        self._close_sent = False
        self._closed = asyncio.get_running_loop().create_future()
        self._reader_task = asyncio.ensure_future(self._read_loop())

    @property
    def transport(self):
        return self.writer.transport

    # Receiving

    async def recv(self):
        """The next message (str or bytes); raises ConnectionClosed once the connection is
        closed and every message before the close was taken."""
        item = await self._messages.get()
        if isinstance(item, ConnectionClosed):
            self._messages.put_nowait(item)  # every later recv() raises too
            raise item
        return item

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.recv()
        except ConnectionClosed:
            raise StopAsyncIteration

    async def wait_closed(self):
        await asyncio.shield(self._closed)

    async def _read_frame(self):
        b0, b1 = await self.reader.readexactly(2)
        fin, rsv, opcode = bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 0x0F
        length = b1 & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", await self.reader.readexactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
        if not b1 & 0x80:
            raise ProtocolError(1002, "an unmasked client frame")
        mask = await self.reader.readexactly(4)
        payload = apply_mask(await self.reader.readexactly(length), mask)
        return fin, rsv, opcode, payload

    async def _read_loop(self):
        code, reason = 1006, ""
        fragments, kind, compressed = [], None, False
        try:
            while True:
                fin, rsv, opcode, payload = await self._read_frame()
                if rsv and not (rsv == 4 and self.deflate and opcode in (TEXT, BINARY)):
                    raise ProtocolError(1002, "reserved bits set")
                if opcode >= 8:
                    if not fin or len(payload) > 125:
                        raise ProtocolError(1002, "a fragmented or long control frame")
                    if opcode == PING:
                        self.pings_received.append(payload)
                        self._write(frame(True, PONG, payload))
                    elif opcode == PONG:
                        self.pongs_received.append(payload)
                        waiter = self._pongs.pop(payload, None)
                        if waiter is not None and not waiter.done():
                            waiter.set_result(None)
                    elif opcode == CLOSE:
                        code, reason = parse_close(payload)
                        if not self._close_sent:
                            self._close_sent = True
                            self._write(frame(True, CLOSE, payload[:2] if code != 1005 else b""))
                        break
                    else:
                        raise ProtocolError(1002, f"reserved opcode {opcode}")
                    continue
                if opcode == CONTINUATION:
                    if kind is None:
                        raise ProtocolError(1002, "a continuation with no message")
                elif opcode in (TEXT, BINARY):
                    if kind is not None:
                        raise ProtocolError(1002, "a new message inside a fragmented one")
                    kind, fragments, compressed = opcode, [], rsv == 4
                else:
                    raise ProtocolError(1002, f"reserved opcode {opcode}")
                fragments.append(payload)
                if fin:
                    self.frames_per_message.append(len(fragments))
                    data, message_kind = b"".join(fragments), kind
                    kind, fragments = None, []
                    self.compressed_in.append(compressed)
                    if compressed:
                        data = self.deflate.decompress(data)
                    self._messages.put_nowait(self._decode(data, message_kind))
        except ProtocolError as error:
            code, reason = error.code, error.reason
            await self._fail(error.code, error.reason)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            code, reason = 1006, ""
        except asyncio.CancelledError:
            code, reason = 1006, ""
        self.close_code, self.close_reason = code, reason
        self._messages.put_nowait(ConnectionClosed(code, reason))
        self.writer.close()
        if not self._closed.done():
            self._closed.set_result(None)

    def _decode(self, data, kind):
        if kind == TEXT:
            try:
                return data.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolError(1007, "invalid UTF-8 in a text message")
        return data

    async def _fail(self, code, reason):
        if not self._close_sent:
            self._close_sent = True
            self._write(frame(True, CLOSE, close_payload(code, reason)))
        try:
            await self.writer.drain()
        except (ConnectionError, OSError):
            pass

    # Sending

    def _write(self, data):
        if not self.writer.is_closing():
            self.writer.write(data)

    async def send(self, message, fragment_size=None):
        """Sends a str as text or bytes as binary, in frames of `fragment_size` bytes when set;
        compressed when permessage-deflate was negotiated."""
        if self._close_sent or self._closed.done():
            raise ConnectionClosed(self.close_code or 1006, self.close_reason or "")
        opcode = TEXT if isinstance(message, str) else BINARY
        payload = message.encode() if isinstance(message, str) else bytes(message)
        rsv = 0
        if self.deflate is not None:
            payload, rsv = self.deflate.compress(payload), 4
        if fragment_size is None or len(payload) <= fragment_size:
            self._write(frame(True, opcode, payload, rsv=rsv))
        else:
            chunks = [payload[i:i + fragment_size] for i in range(0, len(payload), fragment_size)]
            for index, chunk in enumerate(chunks):
                self._write(frame(index == len(chunks) - 1, opcode if index == 0 else 0, chunk,
                                  rsv=rsv if index == 0 else 0))
        await self.writer.drain()

    async def send_frame(self, fin, opcode, payload=b"", rsv=0, length=None):
        """Sends one frame exactly as described, however malformed."""
        self._write(frame(fin, opcode, payload, rsv=rsv, length=length))
        await self.writer.drain()

    async def send_raw(self, data):
        """Sends bytes as they are."""
        self._write(data)
        await self.writer.drain()

    async def ping(self, data=b""):
        """Sends a ping; returns a future the matching pong resolves."""
        waiter = asyncio.get_running_loop().create_future()
        self._pongs[bytes(data)] = waiter
        self._write(frame(True, PING, bytes(data)))
        await self.writer.drain()
        return waiter

    async def pong(self, data=b""):
        """Sends an unsolicited pong."""
        self._write(frame(True, PONG, bytes(data)))
        await self.writer.drain()

    async def close(self, code=1000, reason="", timeout=5):
        """Starts the closing handshake (code None: a close frame with no code) and waits for
        the client's answer, then closes the socket."""
        if not self._close_sent:
            self._close_sent = True
            self._write(frame(True, CLOSE, close_payload(code, reason)))
            try:
                await self.writer.drain()
            except (ConnectionError, OSError):
                pass
        try:
            await asyncio.wait_for(self.wait_closed(), timeout)
        except asyncio.TimeoutError:
            self._reader_task.cancel()
        self.writer.close()

    def abort(self):
        """Drops the TCP connection with no closing handshake."""
        self.transport.abort()


class ProtocolError(Exception):
    def __init__(self, code, reason):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def parse_close(payload):
    if len(payload) == 0:
        return 1005, ""
    if len(payload) == 1:
        raise ProtocolError(1002, "a one-byte close payload")
    (code,) = struct.unpack("!H", payload[:2])
    try:
        return code, payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(1007, "invalid UTF-8 in a close reason")


async def read_request(reader):
    """The opening handshake's request, or None when it is not an HTTP GET."""
    start = await reader.readexactly(4)
    if start != b"GET ":
        return None
    head = start + await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return None
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            name = name.strip().lower()
            value = value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return Request(parts[1], headers)


def handshake_error(request):
    """Why `request` is not a valid WebSocket opening handshake, or None."""
    if "websocket" not in request.header("upgrade", "").lower():
        return "no Upgrade: websocket"
    if "upgrade" not in request.header("connection", "").lower():
        return "no Connection: Upgrade"
    if request.header("sec-websocket-version") != "13":
        return "Sec-WebSocket-Version is not 13"
    key = request.header("sec-websocket-key", "")
    try:
        if len(base64.b64decode(key, validate=True)) != 16:
            return "Sec-WebSocket-Key is not 16 bytes"
    except ValueError:
        return "Sec-WebSocket-Key is not base64"
    return None


async def serve(handler, host, port, ssl=None, select_subprotocol=None, extra_headers=None,
                deflate=None, **kwargs):
    """Starts a WebSocket server; returns the asyncio Server.

    `select_subprotocol(request)` returns the subprotocol to answer (None: no header), even
    one the client did not offer (conformance tests do that on purpose). `extra_headers`
    (request -> list of (name, value)) adds response headers. `deflate(request)` returns the
    permessage-deflate parameters to answer an offer with (a dict: server_no_context_takeover,
    client_no_context_takeover, server_max_window_bits, client_max_window_bits), or None to
    decline; it is asked only when the client offered permessage-deflate. The connection is closed with
    1000 when `handler` returns without closing it.
    """

    async def connection(reader, writer):
        try:
            request = await read_request(reader)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError,
                OSError):
            writer.close()
            return
        if request is None:
            writer.transport.abort()
            return
        problem = handshake_error(request)
        if problem is not None:
            body = problem.encode()
            writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: %d\r\n"
                         b"Connection: close\r\n\r\n%s" % (len(body), body))
            writer.close()
            return
        subprotocol = select_subprotocol(request) if select_subprotocol else None
        lines = ["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket",
                 "Connection: Upgrade",
                 "Sec-WebSocket-Accept: " + accept_key(request.header("sec-websocket-key"))]
        if subprotocol is not None:
            lines.append("Sec-WebSocket-Protocol: " + subprotocol)
        negotiated = None
        offered = request.header("sec-websocket-extensions", "")
        if deflate is not None and "permessage-deflate" in offered:
            params = deflate(request)
            if params is not None:
                negotiated = PerMessageDeflate(params)
                lines.append("Sec-WebSocket-Extensions: " + negotiated.header())
        for name, value in (extra_headers(request) if extra_headers else []):
            lines.append(f"{name}: {value}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        ws = WebSocket(reader, writer, request, subprotocol, negotiated)
        try:
            await handler(ws)
        except ConnectionClosed:
            pass
        except Exception as error:  # a fixture's bug: say so on stderr, fail the connection
            print(f"weft_websocket: handler failed: {error!r}", file=sys.stderr, flush=True)
            await ws.close(1011, "handler failed")
            return
        if not ws._close_sent:
            await ws.close(1000)
        else:
            try:
                await asyncio.wait_for(ws.wait_closed(), 5)
            except asyncio.TimeoutError:
                ws.abort()

    return await asyncio.start_server(connection, host, port, ssl=ssl, **kwargs)


def port_of(server):
    return server.sockets[0].getsockname()[1]


async def run_until_released(lifetime):
    """Returns when standard input closes, the parent process changes or `lifetime` seconds
    pass: how every fixture server knows its test is over."""
    parent = os.getppid()
    stdin_closed = threading.Event()

    def read_stdin():
        sys.stdin.buffer.read()
        stdin_closed.set()

    threading.Thread(target=read_stdin, daemon=True).start()

    async def watch():
        while not stdin_closed.is_set():
            if os.getppid() != parent:
                return
            await asyncio.sleep(0.2)

    try:
        await asyncio.wait_for(watch(), lifetime)
    except asyncio.TimeoutError:
        pass
