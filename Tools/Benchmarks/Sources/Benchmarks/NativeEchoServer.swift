import Foundation
import WeftNetworking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `weft-bench websocket-echo-server`: the server the throughput shapes run against, in its
/// own process: a WebSocket echo and a plain TCP echo (the floor) on 127.0.0.1, a thread per
/// connection, each a poll loop on a non-blocking socket. It prints "PORT N TCP M" and runs
/// until its standard input closes.
///
/// Why it exists: against python's `websockets` server, the server was 71 % of the machine's
/// samples, so every client's throughput was mostly the server's. This one echoes each frame
/// as it arrives — the reply's header as soon as the frame's header is in (the length is
/// known), then each part of the payload, unmasked, as it is read — so a 16 MiB message is
/// echoed while it is still being sent, as the TCP echo echoes it. What the socket does not
/// take is kept and written later, so reading never waits on a client that reads nothing
/// while it sends. It answers a ping with a pong and a close with the same close, does not
/// validate UTF-8 (the clients do) and negotiates no extension. Both echoes copy each byte
/// once between their buffers (the WebSocket echo unmasks in that copy).
///
/// - Complexity: O(bytes) per connection.
/// - Note: Isolation: one thread per listener and per connection; none shares state.
func runNativeEchoServer() -> Never {
  CorePinning.pin(to: CorePinning.serverCores)
  do {
    let webSocket = try LoopbackListener()
    let tcp = try LoopbackListener()
    // Unbuffered: the parent reads this line while the server runs.
    FileHandle.standardOutput.write(Data("PORT \(webSocket.port) TCP \(tcp.port)\n".utf8))
    webSocket.acceptForever { serveEcho($0, webSocket: true) }
    tcp.acceptForever { serveEcho($0, webSocket: false) }
  } catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
  }
  var byte: UInt8 = 0
  while read(0, &byte, 1) > 0 {}
  exit(0)
}

/// A listening socket on 127.0.0.1 at a port the kernel chose.
private struct LoopbackListener {
  let fd: Int32
  let port: Int

  init() throws {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, bound else {
      throw WebSocketBenchmarkError(description: "the echo server could not listen on 127.0.0.1")
    }
    self.fd = fd
    port = Int(UInt16(bigEndian: address.sin_port))
  }

  /// Accepts connections on a thread of their own, each served on a new thread.
  func acceptForever(serve: @escaping @Sendable (Int32) -> Void) {
    let fd = fd
    Thread.detachNewThread {
      while true {
        let connection = accept(fd, nil, nil)
        guard connection >= 0 else { continue }
        var one: Int32 = 1
        _ = setsockopt(
          connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        Thread.detachNewThread { serve(connection) }
      }
    }
  }
}

/// Bytes waiting in one buffer: `start..<end` not yet consumed (inbound) or sent (outbound).
/// It grows rather than blocks, as an asyncio transport's buffer does.
private struct ByteQueue: ~Copyable {
  private(set) var base: UnsafeMutableRawPointer
  private var capacity: Int
  private(set) var start = 0
  var end = 0

  init(capacity: Int) {
    base = .allocate(byteCount: capacity, alignment: 16)
    self.capacity = capacity
  }
  deinit { base.deallocate() }

  var count: Int { end - start }
  var free: Int { capacity - end }

  /// The byte `offset` bytes past `start`.
  func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: start + offset, as: UInt8.self) }

  /// Room for at least `more` bytes at `end` (compacting, or growing); where to write them.
  mutating func reserve(_ more: Int) -> UnsafeMutableRawPointer {
    if end + more > capacity, start >= count {
      base.copyMemory(from: base + start, byteCount: count)
      end = count
      start = 0
    }
    if end + more > capacity {
      capacity = max(capacity * 2, end + more)
      let grown = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
      grown.copyMemory(from: base + start, byteCount: count)
      base.deallocate()
      base = grown
      end = count
      start = 0
    }
    return base + end
  }

  mutating func consume(_ bytes: Int) {
    start += bytes
    if start == end {
      start = 0
      end = 0
    }
  }
}

/// One connection of either echo: read whatever arrives, echo it (unmasked, framed back, for
/// the WebSocket echo), write what the socket takes and keep the rest, so that reading never
/// waits for a client that is still sending (python's client reads nothing while it sends a
/// fragmented message).
@Sendable private func serveEcho(_ fd: Int32, webSocket: Bool) {
  defer { close(fd) }
  _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  var inbound = ByteQueue(capacity: 1 << 20)
  var outbound = ByteQueue(capacity: 1 << 20)
  // nil for the plain TCP echo, which copies every byte back as it is.
  var frames: FrameEchoer? = webSocket ? FrameEchoer() : nil
  while true {
    let wantsOutput = outbound.count > 0
    var entry = pollfd(
      fd: fd, events: Int16(POLLIN) | (wantsOutput ? Int16(POLLOUT) : 0), revents: 0)
    guard poll(&entry, 1, -1) > 0 || errno == EINTR else { return }
    if entry.revents & ~Int16(POLLOUT) != 0 {
      let target = inbound.reserve(1 << 16)
      let got = read(fd, target, inbound.free)
      if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) { return }
      if got > 0 { inbound.end += got }
      if let echoed = frames?.echo(&inbound, into: &outbound) {
        guard echoed else { return }
      } else {
        outbound.reserve(inbound.count).copyMemory(
          from: inbound.base + inbound.start, byteCount: inbound.count)
        outbound.end += inbound.count
        inbound.consume(inbound.count)
      }
    }
    while outbound.count > 0 {
      let sent = send(fd, outbound.base + outbound.start, outbound.count, Int32(MSG_DONTWAIT))
      guard sent > 0 else { break }
      outbound.consume(sent)
    }
    if frames?.closed == true && outbound.count == 0 { return }
  }
}

/// The WebSocket echo's parser: the opening handshake, then each frame's reply header as
/// soon as its header arrives and its payload, unmasked, as each part of it arrives.
private struct FrameEchoer {
  private var handshaken = false
  /// The current frame's payload bytes not yet echoed, and those echoed so far.
  private var remaining = 0
  private var offset = 0
  private var mask: [UInt8] = [0, 0, 0, 0]
  /// A close frame was echoed: nothing after it is read.
  private(set) var closed = false

  /// Echoes what `inbound` holds into `outbound`; false if the handshake has no key.
  mutating func echo(_ inbound: inout ByteQueue, into outbound: inout ByteQueue) -> Bool {
    if !handshaken {
      guard let end = headEnd(inbound) else { return true }
      let head = String(
        decoding: UnsafeRawBufferPointer(start: inbound.base + inbound.start, count: end),
        as: UTF8.self)
      inbound.consume(end + 4)
      guard let key = handshakeKey(head) else { return false }
      let response = Array(
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n").utf8)
      outbound.reserve(response.count).copyMemory(from: response, byteCount: response.count)
      outbound.end += response.count
      handshaken = true
    }
    while !closed || remaining > 0 {
      if remaining > 0 {
        let count = min(remaining, inbound.count)
        guard count > 0 else { return true }
        unmask(
          from: inbound.base + inbound.start, to: outbound.reserve(count), count: count,
          mask: mask, phase: offset)
        outbound.end += count
        inbound.consume(count)
        remaining -= count
        offset += count
        continue
      }
      guard readHeader(&inbound, into: &outbound) else { return true }
    }
    return true
  }

  /// Reads one frame header if all of it has arrived and writes the reply's: the same FIN,
  /// opcode (a ping's reply is a pong) and length, unmasked.
  private mutating func readHeader(
    _ inbound: inout ByteQueue, into outbound: inout ByteQueue
  )
    -> Bool
  {
    guard inbound.count >= 2 else { return false }
    let first = inbound.byte(0)
    let second = inbound.byte(1)
    let lengthBytes = [126: 2, 127: 8][Int(second & 0x7F)] ?? 0
    let maskBytes = second & 0x80 != 0 ? 4 : 0
    let headerLength = 2 + lengthBytes + maskBytes
    guard inbound.count >= headerLength else { return false }
    remaining =
      lengthBytes == 0
      ? Int(second & 0x7F) : (2..<(2 + lengthBytes)).reduce(0) { $0 << 8 | Int(inbound.byte($1)) }
    offset = 0
    mask = maskBytes == 0 ? [0, 0, 0, 0] : (0..<4).map { inbound.byte(2 + lengthBytes + $0) }
    let reply = outbound.reserve(2 + lengthBytes)
    let opcode = first & 0x0F
    reply.storeBytes(of: opcode == 0x9 ? first & 0xF0 | 0xA : first, as: UInt8.self)
    for index in 1..<(2 + lengthBytes) {
      reply.storeBytes(of: inbound.byte(index), toByteOffset: index, as: UInt8.self)
    }
    reply.storeBytes(of: second & 0x7F, toByteOffset: 1, as: UInt8.self)
    outbound.end += 2 + lengthBytes
    inbound.consume(headerLength)
    if opcode == 0x8 { closed = true }
    return true
  }

  /// Where the request's head ends (the offset of its blank line), if it has all arrived.
  private func headEnd(_ inbound: borrowing ByteQueue) -> Int? {
    guard inbound.count >= 4 else { return nil }
    return (0...(inbound.count - 4)).first {
      inbound.byte($0) == 13 && inbound.byte($0 + 1) == 10 && inbound.byte($0 + 2) == 13
        && inbound.byte($0 + 3) == 10
    }
  }

  /// The `Sec-WebSocket-Key` of a request head.
  private func handshakeKey(_ head: String) -> String? {
    for line in head.split(separator: "\r\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "sec-websocket-key" {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }
}

/// Copies `count` bytes XORed with the 4-byte `mask`, the first being the payload's byte
/// `phase`: sixteen bytes at a time.
private func unmask(
  from source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, count: Int,
  mask: [UInt8], phase: Int
) {
  var index = 0
  // One vector a step: a 64-bit word a step ran at a sixth of memcpy's speed.
  let vector = SIMD16<UInt8>((0..<16).map { mask[(phase + $0) & 3] })
  while index &+ 16 <= count {
    let value = source.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
    destination.storeBytes(of: value ^ vector, toByteOffset: index, as: SIMD16<UInt8>.self)
    index &+= 16
  }
  while index < count {
    let byte = source.load(fromByteOffset: index, as: UInt8.self) ^ mask[(phase + index) & 3]
    destination.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
    index += 1
  }
}

/// `weft-bench websocket-echo-server` started as a child of this process.
struct NativeEchoServerProcess {
  let process = Process()
  private let input = Pipe()
  /// The WebSocket echo's port.
  let port: Int
  /// The plain TCP echo's port (the floor).
  let tcpPort: Int

  /// Starts this executable as the echo server and reads the ports it prints.
  init() throws {
    guard let executable = Bundle.main.executableURL else {
      throw WebSocketBenchmarkError(description: "weft-bench cannot find its own executable")
    }
    let output = Pipe()
    process.executableURL = executable
    process.arguments = [BenchCommand.websocketEchoServer.rawValue]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let line = readLine(from: output.fileHandleForReading)
    let words = line.split(separator: " ")
    guard words.count == 4, words[0] == "PORT", let port = Int(words[1]), words[2] == "TCP",
      let tcpPort = Int(words[3])
    else {
      process.terminate()
      throw WebSocketBenchmarkError(
        description: "the native echo server did not start (it printed '\(line)')")
    }
    self.port = port
    self.tcpPort = tcpPort
  }

  /// Ends the server: closing its standard input ends it; terminate() covers one that hangs.
  func stop() {
    // try?: a failed close leaves terminate() to end it.
    try? input.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
  }
}
