import Foundation
import WeftNetworking

/// `weft-bench websocket`'s codec table: the client's own work per throughput shape without a
/// socket, so it reads steadily on a noisy machine. Encode is what `send` does before the
/// system call for a message below 1 MiB (frame and mask into one array,
/// `WebSocketFrameEncoder.encodeMessage`; larger ones are streamed); decode is what the
/// reader does after it (`WebSocketDecoder` fed the server's unmasked frames in 256 KiB reads,
/// as the transport reads them: frame parsing, UTF-8 validation of text, joining fragments,
/// the `Data` or `String` delivered). Median of `rounds` runs of each shape's round trips.
///
/// - Complexity: O(rounds × shapes × bytes).
func runWebSocketCodec(quick: Bool) throws {
  let rounds =
    ProcessInfo.processInfo.environment["WEFT_BENCH_ROUNDS"].flatMap { Int($0) } ?? (quick ? 1 : 5)
  print("")
  print(
    "# WebSocket codec: the client's own work per message, no socket (median of \(rounds) "
      + "round(s); encode: frame and mask a message below 1 MiB, larger ones are streamed 256 KiB "
      + "at a time; decode: the server's frames fed in 256 KiB reads, each copied into the "
      + "decoder, which the transport avoids when a read starts a frame)")
  print(
    "shape".padding(34) + pad("encode µs", 11) + pad("GB/s", 7) + pad("decode µs", 11)
      + pad("GB/s", 7))
  for shape in ThroughputShape.selected(quick: quick) {
    let message = shape.message()
    let bytes = shape.payloadBytes(message)
    let fragmentSize = shape.fragments > 1 ? (bytes + shape.fragments - 1) / shape.fragments : .max
    var random = SystemRandomNumberGenerator()
    // The server's frames of the message: what the decoder reads.
    let wire = WebSocketFrameEncoder.encodeMessage(
      message, fragmentSize: fragmentSize, maskingKeys: &random, masked: false)
    var encode: [Double] = []
    var decode: [Double] = []
    // The transport frames a message below 1 MiB whole, as here; a larger one is framed and
    // masked 256 KiB at a time as the socket takes it (`POSIXWebSocketTransport`), which this
    // table does not time.
    let framedWhole = bytes < 1 << 20
    for _ in 0..<rounds {
      var start = wallNanoseconds()
      if framedWhole {
        var written = 0
        for _ in 0..<shape.count {
          written &+=
            WebSocketFrameEncoder.encodeMessage(
              message, fragmentSize: fragmentSize, maskingKeys: &random
            ).count
        }
        encode.append(Double(wallNanoseconds() - start) / 1e3 / Double(shape.count))
        guard written > bytes else {
          throw WebSocketBenchmarkError(description: "\(shape.name): nothing encoded")
        }
      }
      start = wallNanoseconds()
      var last: RealtimeMessage?
      for _ in 0..<shape.count { last = try decodeOnce(wire, maxMessageSize: 2 * bytes + 1024) }
      decode.append(Double(wallNanoseconds() - start) / 1e3 / Double(shape.count))
      // Compared after the clock stops: a 16 MiB comparison is the harness's cost.
      guard last == message else {
        throw WebSocketBenchmarkError(description: "\(shape.name): the decoded message differs")
      }
    }
    func gigabytesPerSecond(_ microseconds: Double) -> String {
      format(Double(bytes) / microseconds / 1e3, digits: 1)
    }
    let d = Spread(decode).median
    let encoded =
      framedWhole
      ? pad(format(Spread(encode).median, digits: 1), 11)
        + pad(gigabytesPerSecond(Spread(encode).median), 7)
      : pad("streamed", 11) + pad("", 7)
    print(
      shape.name.padding(34) + encoded + pad(format(d, digits: 1), 11)
        + pad(gigabytesPerSecond(d), 7))
  }
}

/// Decodes one message from `wire`, fed in 256 KiB reads.
private func decodeOnce(_ wire: [UInt8], maxMessageSize: Int) throws -> RealtimeMessage? {
  var decoder = WebSocketDecoder(role: .client, maxMessageSize: maxMessageSize)
  var message: RealtimeMessage?
  var offset = 0
  while offset < wire.count {
    let end = min(wire.count, offset + 256 << 10)
    decoder.append(wire[offset..<end])
    offset = end
    while let event = try decoder.next() {
      if case .message(let decoded) = event { message = decoded }
    }
  }
  return message
}
