import Foundation
import WeftNetworking

/// `weft-bench websocket`'s permessage-deflate part: a JSON feed like the health app's
/// insights, echoed by the python `websockets` server (which accepts permessage-deflate when
/// offered) through a counting relay, once without and once with compression. Every echo is
/// checked, and the run fails if an echo differs or compression did not shrink the bytes on
/// the wire (interop with a real implementation, not only with the tests' stdlib server).
///
/// - Complexity: O(messages) round trips, twice.
func runDeflateInterop(relayPort: Int, statsPort: Int, quick: Bool) async throws {
  let count = quick ? 200 : 1_000
  let feed = (0..<count).map { index in
    RealtimeMessage.text(
      #"{"id":"00000000-0000-4000-8000-"# + String(format: "%012d", index)
        + #"","title":"Resting heart rate","body":"Your resting heart rate was "#
        + "\(58 + index % 9)" + #" bpm today, steady for a week.","date":"2026-11-27T12:"#
        + String(format: "%02d:%02d", index / 60 % 60, index % 60)
        + #".000Z","priority":"low"}"#)
  }
  print("")
  print(
    "# permessage-deflate against python websockets (its server's defaults), through a "
      + "counting relay: \(count) JSON insights echoed one at a time, each echo checked")
  print(
    "compression".padding(34) + pad("seconds", 10) + pad("CPU s", 9) + pad("bytes up", 12)
      + pad("bytes down", 12))
  var wire: [Int] = []
  for compression in [nil, WebSocketCompression()] {
    let before = try relayedBytes(statsPort: statsPort)
    var configuration = WebSocketConfiguration()
    configuration.compression = compression
    let socket = try await POSIXWebSocketTransport(
      url: URL(string: "ws://127.0.0.1:\(relayPort)/")!, configuration: configuration
    ).connect()
    let cpu = processCPUSeconds()
    let start = wallNanoseconds()
    for (index, message) in feed.enumerated() {
      try await socket.send(message)
      guard try await socket.receive() == message else {
        throw WebSocketBenchmarkError(
          description: "permessage-deflate interop: the echo of message \(index) differs "
            + "(compression \(compression == nil ? "off" : "on"))")
      }
    }
    let seconds = Double(wallNanoseconds() - start) / 1e9
    let used = processCPUSeconds() - cpu
    socket.close()
    _ = await socket.closure()
    let after = try relayedBytes(statsPort: statsPort)
    let (up, down) = (after.up - before.up, after.down - before.down)
    wire.append(up + down)
    print(
      (compression == nil ? "off" : "permessage-deflate").padding(34)
        + pad(format(seconds, digits: 3), 10) + pad(format(used, digits: 3), 9)
        + pad(format(Double(up), digits: 0), 12) + pad(format(Double(down), digits: 0), 12))
  }
  guard wire[1] * 10 < wire[0] * 9 else {
    throw WebSocketBenchmarkError(
      description: "permessage-deflate interop: \(wire[1]) bytes with compression against "
        + "\(wire[0]) without: the extension was not negotiated with websockets")
  }
  print(
    "bytes on the wire with compression: "
      + format(Double(wire[1]) / Double(wire[0]) * 100, digits: 0) + "% of uncompressed")
}

/// The relay's byte counts so far (`up`: client to server).
private func relayedBytes(statsPort: Int) throws -> (up: Int, down: Int) {
  let fd = try connectLoopback(port: statsPort)
  defer { close(fd) }
  var bytes = [UInt8](repeating: 0, count: 256)
  var line = ""
  while true {
    let count = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    line += String(decoding: bytes[..<count], as: UTF8.self)
  }
  var fields: [String: Int] = [:]
  for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
    let parts = pair.split(separator: "=")
    if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
  }
  guard let up = fields["up"], let down = fields["down"] else {
    throw WebSocketBenchmarkError(description: "the relay's stats port answered \"\(line)\"")
  }
  return (up, down)
}
