import Foundation
import WeftNetworking

/// Round-trip figures for one client: messages per second and p50/p99 round trip.
struct EchoFigures: Sendable {
  var messagesPerSecond: Double
  var p50Microseconds: Double
  var p99Microseconds: Double
}

/// A benchmark that cannot run (no python3, no `websockets`, the server or client failed).
struct WebSocketBenchmarkError: Error, CustomStringConvertible {
  var description: String
}

/// `weft-bench websocket`: N small text messages echoed over loopback, one at a time, by
/// Weft's `POSIXWebSocketTransport` and then by a Python `websockets` client, against the
/// native echo server (``runNativeEchoServer()``) and then the Python `websockets` echo server
/// (Tools/Benchmarks/websocket_echo.py), the servers pinned to one core and the clients to the
/// others (``CorePinning``); then the throughput shapes (``runWebSocketThroughput``), the
/// codec table (``runWebSocketCodec(quick:)``; `WEFT_BENCH_WEBSOCKET=codec` runs it alone) and
/// the permessage-deflate interop run. The python is `WEFT_BENCH_PYTHON` (default `python3`),
/// which must have the `websockets` package.
///
/// - Complexity: O(messages) round trips per client; python3 subprocesses.
func runWebSocketReport(quick: Bool) async throws {
  // WEFT_BENCH_WEBSOCKET=codec: the codec table alone (no socket, no python needed).
  if ProcessInfo.processInfo.environment["WEFT_BENCH_WEBSOCKET"] == "codec" {
    try runWebSocketCodec(quick: quick)
    return
  }
  let count = quick ? 5_000 : 100_000
  let warmup = quick ? 200 : 1_000
  let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("websocket_echo.py").path
  let server = Process()
  server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  let python = ProcessInfo.processInfo.environment["WEFT_BENCH_PYTHON"] ?? "python3"
  server.arguments = [python, script, "serve"]
  let serverInput = Pipe()
  let serverOutput = Pipe()
  server.standardInput = serverInput
  server.standardOutput = serverOutput
  try server.run()
  defer {
    // Closing its standard input ends the server; terminate() covers a server that hangs.
    // try?: a failed close leaves terminate() to end it.
    try? serverInput.fileHandleForWriting.close()
    server.terminate()
    server.waitUntilExit()
  }
  let line = readLine(from: serverOutput.fileHandleForReading)
  let words = line.split(separator: " ")
  guard words.count == 8, words[0] == "PORT", let port = Int(words[1]), words[2] == "TCP",
    let tcpPort = Int(words[3]), words[4] == "RELAY", let relayPort = Int(words[5]),
    words[6] == "STATS", let statsPort = Int(words[7])
  else {
    throw WebSocketBenchmarkError(
      description: "the python echo server did not start with \(python) (it printed '\(line)'); "
        + "it needs the 'websockets' package, in a virtual environment: python3 -m venv "
        + "/tmp/weft-bench && /tmp/weft-bench/bin/pip install websockets, then run with "
        + "WEFT_BENCH_PYTHON=/tmp/weft-bench/bin/python")
  }

  let native = try NativeEchoServerProcess()
  defer { native.stop() }
  // The servers on one core, the clients (this process and the python clients it starts) on
  // the others (CorePinning); the native server pins itself.
  CorePinning.pin(process: server.processIdentifier, to: CorePinning.serverCores)
  CorePinning.pin(to: CorePinning.clientCores)
  // WEFT_BENCH_SERVERS=native: the throughput shapes against the native server alone.
  let environment = ProcessInfo.processInfo.environment
  var servers = [
    EchoServer(name: "the native echo server", port: native.port, tcpPort: native.tcpPort)
  ]
  if environment["WEFT_BENCH_SERVERS"] != "native" {
    servers.append(
      EchoServer(name: "python's websockets server", port: port, tcpPort: tcpPort))
  }
  // WEFT_BENCH_WEBSOCKET=throughput: the throughput shapes alone (for profiling them).
  if environment["WEFT_BENCH_WEBSOCKET"] == "throughput" {
    try await runWebSocketThroughput(
      servers: servers, python: python, script: script, quick: quick,
      rounds: environment["WEFT_BENCH_ROUNDS"].flatMap { Int($0) })
    return
  }
  print(
    "# reproduce: swift run -c release --package-path Tools/Benchmarks weft-bench websocket"
      + (quick ? " --quick" : ""))
  for server in servers {
    try await runSmallMessages(
      against: server, python: python, script: script, count: count, warmup: warmup)
  }
  try await runWebSocketThroughput(servers: servers, python: python, script: script, quick: quick)
  try runWebSocketCodec(quick: quick)
  try await runDeflateInterop(relayPort: relayPort, statsPort: statsPort, quick: quick)
}

/// The small-message table against one server: Weft's client, then the python client.
private func runSmallMessages(
  against server: EchoServer, python: String, script: String, count: Int, warmup: Int
) async throws {
  let weft = try await measureWeft(port: server.port, count: count, warmup: warmup)
  let peer = try runPythonClient(
    python: python, script: script, port: server.port, count: count, warmup: warmup)
  // The floor: the same number of 14-byte round trips ("message 12345") through the
  // server's plain TCP echo.
  let floor = try floorSeconds(count: count, bytes: 14, port: server.tcpPort)
  print("")
  print(
    "# WebSocket echo against \(server.name) (release build; "
      + "\(format(Double(count), digits: 0)) small text messages sent one at a time, each echo "
      + "awaited; the same server for both clients)")
  print(
    "client".padding(40) + pad("messages/s", 14) + pad("p50 round trip", 18)
      + pad("p99 round trip", 18))
  for (name, figures) in [
    ("Weft POSIXWebSocketTransport", weft), ("python websockets client", peer),
  ] {
    print(
      name.padding(40) + pad(format(figures.messagesPerSecond, digits: 0), 14)
        + pad(format(figures.p50Microseconds) + " µs", 18)
        + pad(format(figures.p99Microseconds) + " µs", 18))
  }
  print(
    "plain TCP echo (floor)".padding(40) + pad(format(Double(count) / floor, digits: 0), 14))
  print(
    "Weft / python: messages/s "
      + format(weft.messagesPerSecond / peer.messagesPerSecond, digits: 2) + "×, p50 "
      + format(weft.p50Microseconds / peer.p50Microseconds, digits: 2) + "×, p99 "
      + format(weft.p99Microseconds / peer.p99Microseconds, digits: 2) + "×; floor / Weft: "
      + "messages/s " + format(Double(count) / floor / weft.messagesPerSecond, digits: 2) + "×")
}

/// Weft's client: connects, warms up, then sends `count` messages one at a time.
private func measureWeft(port: Int, count: Int, warmup: Int) async throws -> EchoFigures {
  guard let url = URL(string: "ws://127.0.0.1:\(port)/") else {
    throw WebSocketBenchmarkError(description: "bad port \(port)")
  }
  let socket = try await POSIXWebSocketTransport(url: url).connect()
  defer { socket.close() }
  for index in 0..<warmup {
    try await socket.send(.text("warmup \(index)"))
    _ = try await socket.receive()
  }
  var roundTrips = [UInt64]()
  roundTrips.reserveCapacity(count)
  let start = wallNanoseconds()
  for index in 0..<count {
    let sent = wallNanoseconds()
    try await socket.send(.text("message \(index)"))
    let echo = try await socket.receive()
    roundTrips.append(wallNanoseconds() - sent)
    if index == 0, echo != .text("message 0") {
      throw WebSocketBenchmarkError(description: "unexpected echo \(echo)")
    }
  }
  let elapsed = wallNanoseconds() - start
  roundTrips.sort()
  func percentile(_ fraction: Double) -> Double {
    Double(roundTrips[min(roundTrips.count - 1, Int(Double(roundTrips.count) * fraction))])
      / 1_000
  }
  return EchoFigures(
    messagesPerSecond: Double(count) / (Double(elapsed) / 1e9),
    p50Microseconds: percentile(0.50), p99Microseconds: percentile(0.99))
}

/// The python `websockets` client against the same server; parses its `RESULT` line.
private func runPythonClient(
  python: String, script: String, port: Int, count: Int, warmup: Int
) throws
  -> EchoFigures
{
  let client = Process()
  client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  client.arguments = [
    python, script, "client", "--port", "\(port)", "--count", "\(count)", "--warmup",
    "\(warmup)",
  ]
  let output = Pipe()
  client.standardOutput = output
  try client.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  client.waitUntilExit()
  var fields: [String: Double] = [:]
  for line in text.split(separator: "\n") where line.hasPrefix("RESULT ") {
    for pair in line.dropFirst(7).split(separator: " ") {
      let parts = pair.split(separator: "=")
      if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
    }
  }
  guard client.terminationStatus == 0, let rate = fields["messages_per_second"],
    let p50 = fields["p50_us"], let p99 = fields["p99_us"]
  else {
    throw WebSocketBenchmarkError(
      description: "the python client failed (exit \(client.terminationStatus)): \(text)")
  }
  return EchoFigures(messagesPerSecond: rate, p50Microseconds: p50, p99Microseconds: p99)
}

/// Reads one line (without the newline) from `handle`, byte by byte; "" at end of file.
func readLine(from handle: FileHandle) -> String {
  var bytes = [UInt8]()
  // try?: a read error ends the line like end of file; the caller reports what it got.
  while let byte = try? handle.read(upToCount: 1), let first = byte.first {
    if first == UInt8(ascii: "\n") { break }
    bytes.append(first)
  }
  return String(decoding: bytes, as: UTF8.self)
}
