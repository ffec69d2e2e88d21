import Foundation
import Testing

@testable import WeftNetworking

@Suite("WebSocket framing")
struct WebSocketFramingTests {
  /// Decodes all of `bytes` as `role`, returning every event.
  private func decodeAll(
    _ bytes: [UInt8], role: WebSocketDecoder.Role = .client, limit: Int = 1 << 20
  ) throws(WebSocketError) -> [WebSocketEvent] {
    var decoder = WebSocketDecoder(role: role, maxMessageSize: limit)
    decoder.append(bytes)
    var events: [WebSocketEvent] = []
    while let event = try decoder.next() { events.append(event) }
    return events
  }

  @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
  func maskedAndUnmaskedRoundTrip(size: Int) throws {
    var random = SeededRandom(seed: UInt64(size))
    let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let masked = WebSocketFrameEncoder.encodeMessage(.data(data), maskingKeys: &random)
    #expect(try decodeAll(masked, role: .server) == [.message(.data(data))])
    let plain = WebSocketFrameEncoder.encodeMessage(
      .data(data), maskingKeys: &random, masked: false)
    #expect(try decodeAll(plain) == [.message(.data(data))])
    let headerLength = size < 126 ? 2 : size <= 65_535 ? 4 : 10
    #expect(plain.count == headerLength + size)
    #expect(masked.count == headerLength + 4 + size)
    if size > 3 { #expect(masked[(headerLength + 4)...].elementsEqual(data) == false) }
  }

  /// A binary and a text message of twice the decoder's sink threshold plus `extra` bytes
  /// (the text's non-ASCII characters straddle read boundaries), the binary's bytes stepping
  /// by `stride`.
  func largeMessages(extra: Int, stride: Int) -> [RealtimeMessage] {
    let size = WebSocketDecoder.sinkThreshold * 2 + extra
    let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* stride) })
    return [.data(data), .text(String(repeating: "κόσμε-", count: size / 11))]
  }

  /// A large message arriving in many reads goes straight into its own storage (the
  /// decoder's sink): each split decodes the same message, and the bytes after it (a ping)
  /// are decoded from the same read that ended it.
  @Test(arguments: [1, 7_000, 65_536, 300_000])
  func aLargeMessageInManyReadsDecodesWhole(chunk: Int) throws {
    var random = SeededRandom(seed: 9)
    for message in largeMessages(extra: 3, stride: 7) {
      let stream =
        WebSocketFrameEncoder.encodeMessage(message, maskingKeys: &random, masked: false)
        + WebSocketFrameEncoder.encode(opcode: .ping, payload: [1, 2], maskingKey: nil)
      var decoder = WebSocketDecoder(role: .client, maxMessageSize: 4 << 20)
      var events: [WebSocketEvent] = []
      var start = 0
      while start < stream.count {
        decoder.append(stream[start..<min(start + chunk, stream.count)])
        start += chunk
        while let event = try decoder.next() { events.append(event) }
      }
      #expect(events == [.message(message), .ping([1, 2])])
      #expect(decoder.bufferedCount == 0)
    }
  }

  /// Reads handed to the decoder by trading arrays (what the transport does) decode the same
  /// as copied reads, whatever their size: frames that arrive whole are decoded where they
  /// were read, a frame cut by a read is completed by copies (or its sink), and the array that
  /// comes back may be written over at once.
  @Test(arguments: [1, 5, 64, 333, 4_096, 1 << 20])
  func readsTradedForTheDecodersBufferDecodeTheSame(readSize: Int) throws {
    var random = SeededRandom(seed: 11)
    let big = Data(
      (0..<(WebSocketDecoder.sinkThreshold + 5)).map { UInt8(truncatingIfNeeded: $0 &* 3) })
    let messages: [RealtimeMessage] = [
      .text("héllo wörld"), .data(Data(repeating: 9, count: 3_000)), .data(big), .text("end"),
    ]
    var stream: [UInt8] = []
    for message in messages {
      stream += WebSocketFrameEncoder.encodeMessage(
        message, fragmentSize: message == messages[1] ? 1_000 : .max, maskingKeys: &random,
        masked: false)
      stream += WebSocketFrameEncoder.encode(opcode: .ping, payload: [7], maskingKey: nil)
    }
    var decoder = WebSocketDecoder(role: .client, maxMessageSize: 4 << 20)
    var read = [UInt8](repeating: 0xEE, count: readSize)
    var events: [WebSocketEvent] = []
    var start = 0
    while start < stream.count {
      if read.count < readSize { read = [UInt8](repeating: 0xEE, count: readSize) }
      let count = min(read.count, stream.count - start)
      read.replaceSubrange(0..<count, with: stream[start..<(start + count)])
      decoder.append(swapping: &read, count: count)
      start += count
      // The array handed back is the reader's again: writing over it changes nothing.
      for index in 0..<min(read.count, 32) { read[index] = 0xEE }
      while let event = try decoder.next() { events.append(event) }
    }
    #expect(events == messages.flatMap { [.message($0), .ping([7])] })
    #expect(decoder.bufferedCount == 0)
  }

  /// The rest of a large message arriving in parts can be read straight into its storage
  /// (what the transport does): the same message, text validated as it arrives (an invalid
  /// byte fails before the end), and no such read when no large message is arriving.
  @Test(arguments: [1, 4_096, 100_000, 1 << 20])
  func aLargeMessageReadIntoItsStorageDecodesWhole(readSize: Int) throws {
    var random = SeededRandom(seed: 13)
    for message in largeMessages(extra: 7, stride: 5) {
      let stream = WebSocketFrameEncoder.encodeMessage(
        message, maskingKeys: &random, masked: false)
      var decoder = WebSocketDecoder(role: .client, maxMessageSize: 4 << 20)
      #expect(decoder.readIntoSink(limit: 1 << 20) { _ in 1 } == nil)
      decoder.append(stream[..<1_000])
      #expect(try decoder.next() == nil)
      var start = 1_000
      while start < stream.count {
        let count = decoder.readIntoSink(limit: readSize) { space in
          let count = min(space.count, stream.count - start)
          space.copyBytes(from: stream[start..<(start + count)])
          return count
        }
        #expect(count != nil)
        start += count ?? stream.count
      }
      #expect(try decoder.next() == .message(message))
      #expect(decoder.readIntoSink(limit: 1 << 20) { _ in 1 } == nil)
    }
    var bytes = Array(String(repeating: "é", count: WebSocketDecoder.sinkThreshold).utf8)
    bytes[WebSocketDecoder.sinkThreshold + 11] = 0xFF
    let stream = WebSocketFrameEncoder.encode(opcode: .text, payload: bytes, maskingKey: nil)
    var decoder = WebSocketDecoder(role: .client, maxMessageSize: 4 << 20)
    decoder.append(stream[..<1_000])
    #expect(try decoder.next() == nil)
    let count = decoder.readIntoSink(limit: WebSocketDecoder.sinkThreshold) { space in
      space.copyBytes(from: stream[1_000..<(1_000 + space.count)])
      return space.count
    }
    #expect(count == WebSocketDecoder.sinkThreshold)
    #expect(throws: WebSocketError.invalidUTF8) { try decoder.next() }
  }

  /// A message written in chunks (`WebSocketOutgoingMessage`, what the transport does for
  /// large sends) is the same bytes as the message framed whole with the same keys, for any
  /// chunk size (the masking key turned at every chunk boundary inside a payload).
  @Test(arguments: [16, 17, 1_000, 65_536])
  func chunkedFramesAreTheWholeFrames(chunk: Int) throws {
    let data = Data((0..<70_001).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    for (message, fragmentSize) in [
      (RealtimeMessage.data(data), Int.max), (.data(data), 9_999), (.text("κόσμε"), 3),
      (.data(Data()), Int.max),
    ] {
      var keys = SeededRandom(seed: 21)
      let whole = WebSocketFrameEncoder.encodeMessage(
        message, fragmentSize: fragmentSize, maskingKeys: &keys)
      keys = SeededRandom(seed: 21)
      let outgoing = WebSocketOutgoingMessage(
        message, fragmentSize: fragmentSize, maskingKeys: &keys)
      var chunked: [UInt8] = []
      try outgoing.write(chunkSize: chunk) { chunked += $0 }
      #expect(chunked == whole)
      #expect(try decodeAll(chunked, role: .server) == [.message(message)])
    }
  }

  /// A large text message fails at its first invalid byte, before the rest arrives.
  @Test func aLargeTextMessageFailsBeforeItsEnd() throws {
    var bytes = Array(String(repeating: "é", count: WebSocketDecoder.sinkThreshold).utf8)
    bytes[WebSocketDecoder.sinkThreshold + 11] = 0xFF
    let stream = WebSocketFrameEncoder.encode(opcode: .text, payload: bytes, maskingKey: nil)
    var decoder = WebSocketDecoder(role: .client, maxMessageSize: 4 << 20)
    decoder.append(stream[..<1_000])
    #expect(try decoder.next() == nil)
    decoder.append(stream[1_000..<(WebSocketDecoder.sinkThreshold + 100)])
    #expect(throws: WebSocketError.invalidUTF8) { try decoder.next() }
  }

  @Test func knownVectorsFromRFC6455() throws {
    // RFC 6455 §5.7: a single-frame unmasked text message, and a masked one.
    #expect(
      try decodeAll([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]) == [.message(.text("Hello"))])
    let masked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
    #expect(try decodeAll(masked, role: .server) == [.message(.text("Hello"))])
    #expect(
      WebSocketFrameEncoder.encode(
        opcode: .text, payload: Array("Hello".utf8), maskingKey: 0x37fa_213d)
        == masked)
    // A fragmented unmasked text message, "Hel" + "lo".
    let fragments: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f]
    #expect(try decodeAll(fragments) == [.message(.text("Hello"))])
    // An unmasked ping with "Hello".
    #expect(
      try decodeAll([0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]) == [.ping(Array("Hello".utf8))])
  }

  @Test func everySplitPointOfAStreamDecodesTheSame() throws {
    var random = SeededRandom(seed: 7)
    var stream: [UInt8] = []
    stream += WebSocketFrameEncoder.encodeMessage(
      .text("héllo wörld"), maskingKeys: &random, masked: false)
    stream += WebSocketFrameEncoder.encode(opcode: .ping, payload: [1, 2, 3], maskingKey: nil)
    stream += WebSocketFrameEncoder.encodeMessage(
      .data(Data(repeating: 9, count: 300)), fragmentSize: 100, maskingKeys: &random, masked: false)
    stream += WebSocketFrameEncoder.encode(
      opcode: .close, payload: WebSocketFrameEncoder.closePayload(code: 1000, reason: "bye"),
      maskingKey: nil)
    let expected: [WebSocketEvent] = [
      .message(.text("héllo wörld")), .ping([1, 2, 3]),
      .message(.data(Data(repeating: 9, count: 300))), .close(code: 1000, reason: "bye"),
    ]
    #expect(try decodeAll(stream) == expected)
    for split in 0...stream.count {
      var decoder = WebSocketDecoder()
      var events: [WebSocketEvent] = []
      decoder.append(stream[..<split])
      while let event = try decoder.next() { events.append(event) }
      decoder.append(stream[split...])
      while let event = try decoder.next() { events.append(event) }
      #expect(events == expected, "split at \(split)")
    }
    // One byte at a time.
    var decoder = WebSocketDecoder()
    var events: [WebSocketEvent] = []
    for byte in stream {
      decoder.append(CollectionOfOne(byte))
      while let event = try decoder.next() { events.append(event) }
    }
    #expect(events == expected)
    #expect(decoder.bufferedCount == 0)
  }

  @Test func fragmentedMessageWithInterleavedControlFrame() throws {
    var stream = WebSocketFrameEncoder.encode(
      opcode: .text, payload: Array("ab".utf8), fin: false, maskingKey: nil)
    stream += WebSocketFrameEncoder.encode(opcode: .pong, payload: [7], maskingKey: nil)
    stream += WebSocketFrameEncoder.encode(
      opcode: .continuation, payload: Array("cd".utf8), fin: false, maskingKey: nil)
    stream += WebSocketFrameEncoder.encode(
      opcode: .continuation, payload: Array("e".utf8), maskingKey: nil)
    #expect(try decodeAll(stream) == [.pong([7]), .message(.text("abcde"))])
  }

  @Test func utf8SplitAcrossFragmentsIsValid() throws {
    let bytes = Array("é".utf8)  // two bytes, one per fragment
    var stream = WebSocketFrameEncoder.encode(
      opcode: .text, payload: bytes[..<1], fin: false, maskingKey: nil)
    stream += WebSocketFrameEncoder.encode(
      opcode: .continuation, payload: bytes[1...], maskingKey: nil)
    #expect(try decodeAll(stream) == [.message(.text("é"))])
  }

  @Test func oversizeMessagesFailWithATypedError() throws {
    // One frame whose declared length is over the limit fails after its header alone.
    let header: [UInt8] = [0x82, 127, 0, 0, 0, 1, 0, 0, 0, 0]
    #expect(throws: WebSocketError.messageTooLarge(limit: 1000)) {
      try decodeAll(header, limit: 1000)
    }
    // Fragments that are each small but together exceed it.
    var stream: [UInt8] = []
    stream += WebSocketFrameEncoder.encode(
      opcode: .binary, payload: [UInt8](repeating: 1, count: 600), fin: false, maskingKey: nil)
    stream += WebSocketFrameEncoder.encode(
      opcode: .continuation, payload: [UInt8](repeating: 1, count: 600), maskingKey: nil)
    #expect(throws: WebSocketError.messageTooLarge(limit: 1000)) {
      try decodeAll(stream, limit: 1000)
    }
    // Exactly the limit passes.
    let exact = WebSocketFrameEncoder.encode(
      opcode: .binary, payload: [UInt8](repeating: 1, count: 1000), maskingKey: nil)
    #expect(try decodeAll(exact, limit: 1000).count == 1)
  }

  @Test func malformedFramesFailWithProtocolViolations() throws {
    let cases: [(String, [UInt8])] = [
      ("reserved bit", [0xC1, 0x00]),
      ("unknown opcode", [0x83, 0x00]),
      ("fragmented control", [0x09, 0x00]),
      ("control too long", [0x89, 126, 0, 126] + [UInt8](repeating: 0, count: 126)),
      ("masked server frame", [0x81, 0x81, 1, 2, 3, 4, 5]),
      ("continuation first", [0x80, 0x00]),
      ("new message in fragmented", [0x01, 0x01, 0x61, 0x81, 0x01, 0x61]),
      ("close of one byte", [0x88, 0x01, 0x03]),
      ("close code 1005", [0x88, 0x02, 0x03, 0xED]),
      ("close code 999", [0x88, 0x02, 0x03, 0xE7]),
      ("64-bit top bit", [0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1]),
    ]
    for (name, bytes) in cases {
      var decoder = WebSocketDecoder()
      decoder.append(bytes)
      do {
        _ = try decoder.next()
        Issue.record("\(name): decoded without an error")
      } catch {
        guard case .protocolViolation = error else {
          Issue.record("\(name): \(error)")
          continue
        }
        // The decoder stays failed.
        #expect(throws: error) { try decoder.next() }
      }
    }
    #expect(throws: WebSocketError.protocolViolation("a client frame is not masked")) {
      try decodeAll([0x81, 0x00], role: .server)
    }
  }

  @Test func invalidUTF8TextAndCloseReasonsAreTypedErrors() {
    #expect(throws: WebSocketError.invalidUTF8) { try decodeAll([0x81, 0x02, 0xC3, 0x28]) }
    #expect(throws: WebSocketError.invalidUTF8) { try decodeAll([0x88, 0x03, 0x03, 0xE8, 0xFF]) }
    #expect(WebSocketError.invalidUTF8.closeCode == 1007)
    #expect(WebSocketError.messageTooLarge(limit: 1).closeCode == 1009)
  }

  @Test func closePayloadsAreCodedAndCut() throws {
    #expect(WebSocketFrameEncoder.closePayload(code: nil, reason: "x").isEmpty)
    let long = String(repeating: "é", count: 100)  // 200 bytes
    let payload = WebSocketFrameEncoder.closePayload(code: 4000, reason: long)
    #expect(payload.count <= 125)
    let frame = WebSocketFrameEncoder.encode(opcode: .close, payload: payload, maskingKey: nil)
    guard case .close(let code, let reason) = try decodeAll(frame).first else {
      Issue.record("no close event")
      return
    }
    #expect(code == 4000)
    #expect(reason == String(repeating: "é", count: 61))
    #expect(try decodeAll([0x88, 0x00]) == [.close(code: nil, reason: "")])
  }

  /// Seeded fuzz: random byte streams and mutations of valid streams, fed in random chunks.
  /// Decoding must end (every `next()` either consumes a frame, returns nil or throws) and
  /// never trap; a bounded loop proves it cannot spin.
  @Test func fuzzedFramesNeverCrashOrHang() throws {
    var random = SeededRandom(seed: 0x5EED)
    var valid: [UInt8] = []
    for index in 0..<20 {
      let size = Int.random(in: 0...300, using: &random)
      let message: RealtimeMessage =
        index.isMultiple(of: 2)
        ? .text(String(repeating: "aé", count: size / 3))
        : .data(Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }))
      valid += WebSocketFrameEncoder.encodeMessage(
        message, fragmentSize: Int.random(in: 1...200, using: &random), maskingKeys: &random,
        masked: false)
      valid += WebSocketFrameEncoder.encode(opcode: .ping, payload: [1], maskingKey: nil)
    }
    var outcomes = (events: 0, errors: 0)
    for round in 0..<3000 {
      var bytes: [UInt8]
      if round.isMultiple(of: 3) {
        bytes = (0..<Int.random(in: 0...64, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      } else {
        bytes = valid
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let at = Int.random(in: 0..<bytes.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
          case 1: bytes.remove(at: at)
          default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
          }
        }
      }
      var decoder = WebSocketDecoder(
        role: round.isMultiple(of: 5) ? .server : .client, maxMessageSize: 4096)
      var offset = 0
      var steps = 0
      feeding: while offset < bytes.count {
        let end = min(bytes.count, offset + Int.random(in: 1...97, using: &random))
        decoder.append(bytes[offset..<end])
        offset = end
        do {
          while try decoder.next() != nil {
            outcomes.events += 1
            steps += 1
            // Each event consumes at least 2 bytes, so this bound can't be reached legitimately.
            #expect(steps <= bytes.count)
            if steps > bytes.count { break feeding }
          }
        } catch {
          outcomes.errors += 1
          break feeding
        }
      }
    }
    // The fuzz reached both outcomes (a decoder that rejected everything would fail this).
    #expect(outcomes.events > 1000)
    #expect(outcomes.errors > 1000)
  }
}
