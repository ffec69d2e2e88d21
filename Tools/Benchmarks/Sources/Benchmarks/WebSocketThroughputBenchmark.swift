import Foundation
import WeftNetworking

#if canImport(Glibc)
import Glibc
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
import Darwin
private let streamSocketType = SOCK_STREAM
#endif

/// One throughput shape of issue 29: `count` round trips of one message of `size` bytes.
struct ThroughputShape: Sendable {
  var name: String
  var text: Bool
  var count: Int
  var size: Int
  /// Frames per message the client sends (1: unfragmented).
  var fragments: Int

  /// The four shapes (--quick: a tenth of the round trips, 4 MiB instead of 16 MiB).
  static func all(quick: Bool) -> [ThroughputShape] {
    let big = quick ? 4 << 20 : 16 << 20
    let trips = quick ? 100 : 1_000
    return [
      ThroughputShape(
        name: "\(trips) × 64 KiB binary", text: false, count: trips, size: 64 << 10,
        fragments: 1),
      ThroughputShape(
        name: "\(trips) × 64 KiB text", text: true, count: trips, size: 64 << 10, fragments: 1),
      ThroughputShape(
        name: "1 × \(big >> 20) MiB binary", text: false, count: 1, size: big, fragments: 1),
      ThroughputShape(
        name: "\(big >> 20) MiB text in 256 fragments", text: true, count: 1, size: big,
        fragments: 256),
    ]
  }

  /// The shapes a run measures: ``all(quick:)``, or with `WEFT_BENCH_SHAPES` set, only those
  /// whose names contain its value (`WEFT_BENCH_SHAPES=fragments`, for profiling one).
  static func selected(quick: Bool) -> [ThroughputShape] {
    let only = ProcessInfo.processInfo.environment["WEFT_BENCH_SHAPES"]
    return all(quick: quick).filter { only.map($0.name.contains) ?? true }
  }

  /// The message, built as `websocket_echo.py`'s `shape_message` builds it.
  func message() -> RealtimeMessage {
    if text {
      let unit = #"{"id":1,"title":"Resting heart rate","body":"64 bpm, steady","note":"é"},"#
      let bytes = Array(
        String(repeating: unit, count: size / unit.utf8.count + 1).utf8.prefix(size))
      var end = bytes.count
      while end > 0, bytes[end - 1] & 0xC0 == 0x80 || bytes[end - 1] >= 0xC0 { end -= 1 }
      return .text(String(decoding: bytes[..<end], as: UTF8.self))
    }
    var bytes = [UInt8](repeating: 0, count: size)
    for index in 0..<(size / 251 * 251) { bytes[index] = UInt8((index % 251) * 31 % 251) }
    return .data(Data(bytes))
  }

  /// The message's payload size in bytes.
  func payloadBytes(_ message: RealtimeMessage) -> Int {
    switch message {
    case .text(let text): text.utf8.count
    case .data(let data): data.count
    }
  }
}

/// A server the WebSocket benchmark runs against (the small messages and the throughput
/// shapes): its WebSocket echo and its plain TCP echo.
struct EchoServer: Sendable {
  /// How the table's title names it.
  var name: String
  var port: Int
  /// The plain TCP echo of the same server (the floor).
  var tcpPort: Int
}

/// `weft-bench websocket`'s throughput part, one table per server: each shape by Weft's
/// client (by default, and with the timed loop on the socket's task executor:
/// ``WebSocketConfiguration/providesTaskExecutor``), by the python `websockets` client and as
/// a plain TCP echo of the same bytes through the same server (the floor), interleaved
/// `rounds` times with the clients' order rotated each round; median seconds per client. The
/// targets are read on the native server (``runNativeEchoServer()``), which is not the
/// bottleneck; python's server is kept for comparison with earlier rounds.
///
/// - Complexity: O(servers × rounds × shapes × bytes); one python3 subprocess per python
///   measurement.
func runWebSocketThroughput(
  servers: [EchoServer], python: String, script: String, quick: Bool, rounds: Int? = nil
) async throws {
  let rounds = rounds ?? (quick ? 1 : 8)
  let weftOnly = ProcessInfo.processInfo.environment["WEFT_BENCH_WEBSOCKET_CLIENTS"] == "weft"
  for server in servers {
    print("")
    print(
      "# WebSocket throughput against \(server.name) (issue 29's shapes; release build; each "
        + "echo awaited; median of \(rounds) round(s), the clients' order rotated each round; the floor is a plain TCP echo "
        + "of the same payload bytes through the same server)")
    print(
      "shape".padding(34) + pad("Weft s", 9) + pad("CPU s", 8) + pad("websockets s", 14)
        + pad("CPU s", 8) + pad("floor s", 9) + pad("websockets/Weft", 17)
        + pad("Weft/floor", 12))
    for shape in ThroughputShape.selected(quick: quick) {
      try await runShape(
        shape, server: server, python: python, script: script, rounds: rounds, weftOnly: weftOnly)
    }
  }
  print(
    "on its task executor: the same client with WebSocketConfiguration.providesTaskExecutor, "
      + "the timed loop under withTaskExecutorPreference(socket.taskExecutor)")
  print(
    "CPU s: the client's user + system time over the timed round trips (Weft: every thread of "
      + "this process; websockets: the python client process)")
  print(
    "targets (issue 29): websockets/Weft ≥ 2× on each shape; Weft/floor ≤ 1.5× (read against "
      + "the native server: python's is the bottleneck of every client)")
}

/// The clients a shape's round runs.
private enum ThroughputClient: CaseIterable {
  case weft, weftOnExecutor, websockets, floor

  var isWeft: Bool { self == .weft || self == .weftOnExecutor }
}

/// One shape's rows in one server's table.
private func runShape(
  _ shape: ThroughputShape, server: EchoServer, python: String, script: String,
  rounds: Int, weftOnly: Bool
) async throws {
  let message = shape.message()
  var weft: [Double] = []
  var weftCPU: [Double] = []
  var onExecutor: [Double] = []
  var onExecutorCPU: [Double] = []
  var peer: [Double] = []
  var peerCPU: [Double] = []
  var floor: [Double] = []
  // Each round runs the clients in a different order (rotated by one a round): a client's
  // figure depends on what ran just before it (after the python client, the floor ran up to
  // twice as fast as in a row of its own), so every client takes every place in turn.
  let clients = ThroughputClient.allCases.filter { !weftOnly || $0.isWeft }
  for round in 0..<rounds {
    let start = round % clients.count
    for client in clients[start...] + clients[..<start] {
      switch client {
      case .weft, .weftOnExecutor:
        let measured = try await weftSeconds(
          shape, message: message, port: server.port, onSocketExecutor: client == .weftOnExecutor)
        if client == .weft {
          weft.append(measured.seconds)
          weftCPU.append(measured.cpu)
        } else {
          onExecutor.append(measured.seconds)
          onExecutorCPU.append(measured.cpu)
        }
      case .websockets:
        let (seconds, cpu) = try pythonSeconds(
          shape, python: python, script: script, port: server.port)
        peer.append(seconds)
        peerCPU.append(cpu)
      case .floor:
        floor.append(
          try floorSeconds(
            count: shape.count, bytes: shape.payloadBytes(message), port: server.tcpPort))
      }
    }
  }
  let rows = [(shape.name, weft, weftCPU), ("  on its task executor", onExecutor, onExecutorCPU)]
  for (name, times, cpu) in rows {
    if weftOnly {
      print(
        name.padding(34) + pad(format(Spread(times).median, digits: 3), 9)
          + pad(format(Spread(cpu).median, digits: 3), 8))
      continue
    }
    let (w, p, f) = (Spread(times).median, Spread(peer).median, Spread(floor).median)
    print(
      name.padding(34) + pad(format(w, digits: 3), 9)
        + pad(format(Spread(cpu).median, digits: 3), 8) + pad(format(p, digits: 3), 14)
        + pad(format(Spread(peerCPU).median, digits: 3), 8) + pad(format(f, digits: 3), 9)
        + pad(format(p / w, digits: 2) + "×", 17) + pad(format(w / f, digits: 2) + "×", 12))
  }
}

/// User plus system CPU seconds of this process, every thread.
func processCPUSeconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
  getrusage(RUSAGE_SELF, &usage)
  #endif
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Weft's client: one warm-up round trip, then `count` timed ones, each echo checked;
/// `onSocketExecutor`: all of it on the socket's task executor.
private func weftSeconds(
  _ shape: ThroughputShape, message: RealtimeMessage, port: Int, onSocketExecutor: Bool = false
) async throws -> (seconds: Double, cpu: Double) {
  var configuration = WebSocketConfiguration(
    maxMessageSize: 64 << 20, providesTaskExecutor: onSocketExecutor)
  if shape.fragments > 1 {
    configuration.fragmentSize =
      (shape.payloadBytes(message) + shape.fragments - 1)
      / shape.fragments
  }
  let socket = try await POSIXWebSocketTransport(
    url: URL(string: "ws://127.0.0.1:\(port)/")!, configuration: configuration
  ).connect()
  defer { socket.close() }
  return try await withTaskExecutorPreference(socket.taskExecutor) {
    try await roundTrips(shape, message: message, socket: socket)
  }
}

/// `weftSeconds`' warm-up and timed round trips on `socket`: their wall and CPU seconds.
private func roundTrips(
  _ shape: ThroughputShape, message: RealtimeMessage, socket: any RealtimeSocket
) async throws -> (seconds: Double, cpu: Double) {
  try await socket.send(message)
  guard try await socket.receive() == message else {
    throw WebSocketBenchmarkError(description: "\(shape.name): the echo differs")
  }
  // Inside the timed loop each echo's length is checked, as the python client checks it;
  // the last echo is compared byte for byte after the clock stops (a 16 MiB String
  // comparison is the harness's cost, not the client's).
  let size = shape.payloadBytes(message)
  var last = message
  let cpuStart = processCPUSeconds()
  let start = wallNanoseconds()
  for _ in 0..<shape.count {
    try await socket.send(message)
    last = try await socket.receive()
    guard shape.payloadBytes(last) == size else {
      throw WebSocketBenchmarkError(description: "\(shape.name): the echo's length differs")
    }
  }
  let seconds = Double(wallNanoseconds() - start) / 1e9
  let cpu = processCPUSeconds() - cpuStart
  guard last == message else {
    throw WebSocketBenchmarkError(description: "\(shape.name): the echo differs")
  }
  return (seconds, cpu)
}

/// The python `websockets` client for one shape: wall and CPU seconds of its timed round
/// trips, from its `RESULT seconds=… cpu=…` line.
private func pythonSeconds(
  _ shape: ThroughputShape, python: String, script: String, port: Int
) throws -> (Double, Double) {
  let client = Process()
  client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  client.arguments = [
    python, script, "shape", "--port", "\(port)", "--shape", shape.text ? "text" : "binary",
    "--count", "\(shape.count)", "--size", "\(shape.size)", "--fragments", "\(shape.fragments)",
  ]
  let output = Pipe()
  client.standardOutput = output
  try client.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  client.waitUntilExit()
  let fields = announcedNumbers(text, after: "RESULT")
  guard client.terminationStatus == 0, let seconds = fields["seconds"], let cpu = fields["cpu"]
  else {
    throw WebSocketBenchmarkError(
      description:
        "the python client failed on \(shape.name) (exit \(client.terminationStatus)): \(text)")
  }
  return (seconds, cpu)
}

/// The `key=number` fields of the first line of `text` that starts with `word`.
private func announcedNumbers(_ text: String, after word: String) -> [String: Double] {
  guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(word + " ") })
  else { return [:] }
  var fields: [String: Double] = [:]
  for pair in line.split(separator: " ").dropFirst() {
    let parts = pair.split(separator: "=")
    if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
  }
  return fields
}

/// The floor: `count` round trips of `bytes` bytes through a plain TCP echo, written and read
/// at once (poll), with no WebSocket framing, masking or validation.
func floorSeconds(count: Int, bytes: Int, port: Int) throws -> Double {
  let fd = try connectLoopback(port: port)
  defer { close(fd) }
  var one: Int32 = 1
  _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  let payload = [UInt8](repeating: 0x5A, count: bytes)
  var inbound = [UInt8](repeating: 0, count: 1 << 20)
  func roundTrip() throws {
    var sent = 0
    var received = 0
    while received < bytes {
      var entry = pollfd(
        fd: fd, events: Int16(POLLIN) | (sent < bytes ? Int16(POLLOUT) : 0), revents: 0)
      guard poll(&entry, 1, 10_000) > 0 else {
        throw WebSocketBenchmarkError(description: "the floor echo stalled")
      }
      if sent < bytes, entry.revents & Int16(POLLOUT) != 0 {
        let count = payload.withUnsafeBytes {
          send(fd, $0.baseAddress! + sent, min(bytes - sent, 1 << 20), Int32(MSG_DONTWAIT))
        }
        if count > 0 { sent += count }
      }
      if entry.revents & Int16(POLLIN) != 0 {
        let count = inbound.withUnsafeMutableBytes {
          recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        if count == 0 { throw WebSocketBenchmarkError(description: "the floor echo closed") }
        if count > 0 { received += count }
      }
    }
  }
  try roundTrip()  // warm-up
  let start = wallNanoseconds()
  for _ in 0..<count { try roundTrip() }
  return Double(wallNanoseconds() - start) / 1e9
}

/// A blocking TCP connection to 127.0.0.1:`port`.
func connectLoopback(port: Int) throws -> Int32 {
  let fd = socket(AF_INET, streamSocketType, 0)
  guard fd >= 0 else { throw WebSocketBenchmarkError(description: "socket failed") }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(fd)
    throw WebSocketBenchmarkError(description: "connect to 127.0.0.1:\(port) failed")
  }
  return fd
}
