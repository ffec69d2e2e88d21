import CZlib

/// Raw deflate for permessage-deflate's sending side (RFC 7692 §7.2.1): each message is
/// compressed with a sync flush and its trailing `00 00 FF FF` removed.
///
/// - Complexity: O(input) per message.
/// - Note: Isolation: not thread-safe; one connection's machine owns it, under its owner's
///   lock.
/// - Note: Allocations: zlib's state (≈ 256 KiB at 15 window bits) and a 64 KiB scratch
///   buffer, once; one array per message.
final class Deflater: @unchecked Sendable {
  // @unchecked Sendable: zlib's stream is mutable state behind raw pointers. It is safe because
  // exactly one WebSocketConnectionMachine owns this object and every call comes from the
  // machine, which POSIXWebSocket mutates only inside its `inner` lock; nothing else holds it.
  private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
  private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
  private let resetsPerMessage: Bool

  /// Makes a deflater with a window of `windowBits` (9–15), reset after each message when
  /// `noContextTakeover`; nil when zlib refuses the parameters.
  init?(windowBits: Int, noContextTakeover: Bool) {
    stream.initialize(to: z_stream())
    resetsPerMessage = noContextTakeover
    guard weft_deflate_init_raw(stream, Z_DEFAULT_COMPRESSION, Int32(windowBits)) == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      scratch.deallocate()
      return nil
    }
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    scratch.deallocate()
  }

  /// One message's compressed payload.
  func compress(_ input: UnsafeRawBufferPointer) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 2 + 64)
    let base = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
    stream.pointee.avail_in = uInt(input.count)
    repeat {
      stream.pointee.next_out = scratch.baseAddress?.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = uInt(scratch.count)
      _ = deflate(stream, Z_SYNC_FLUSH)
      let produced = scratch.count - Int(stream.pointee.avail_out)
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<produced]))
    } while stream.pointee.avail_out == 0 || stream.pointee.avail_in > 0
    stream.pointee.next_in = nil
    if output.count >= 4 && output[(output.count - 4)...].elementsEqual([0, 0, 0xFF, 0xFF]) {
      output.removeLast(4)
    }
    if output.isEmpty { output = [0] }  // an empty message: one empty stored block's byte
    if resetsPerMessage { deflateReset(stream) }
    return output
  }
}

/// Raw inflate for permessage-deflate's receiving side, with a bound on the output: a
/// message that inflates past the limit fails with ``WebSocketError/messageTooLarge(limit:)``
/// (1009) after at most 64 KiB more than the limit was produced, never exhausting memory.
///
/// - Complexity: O(input + output) per frame.
/// - Note: Isolation: not thread-safe; one connection's decoder owns it, under its owner's
///   lock.
/// - Note: Allocations: zlib's state (≈ 44 KiB) and a 64 KiB scratch buffer, once.
final class Inflater: @unchecked Sendable {
  // @unchecked Sendable: as Deflater; one WebSocketDecoder owns it, and the decoder is mutated
  // only by its machine inside POSIXWebSocket's `inner` lock.
  private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
  private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
  /// Reset after each message (the server does not keep its context: no back-references).
  let resetsPerMessage: Bool

  /// Makes an inflater with a 15-bit window (it inflates any smaller window too); nil when
  /// zlib cannot start.
  init?(noContextTakeover: Bool) {
    stream.initialize(to: z_stream())
    resetsPerMessage = noContextTakeover
    guard weft_inflate_init_raw(stream, 15) == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      scratch.deallocate()
      return nil
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    scratch.deallocate()
  }

  /// Inflates `input`, appending to `output`, which may not grow past `limit` bytes.
  ///
  /// - Throws: ``WebSocketError/messageTooLarge(limit:)`` past the limit;
  ///   ``WebSocketError/protocolViolation(_:)`` for data that is not raw deflate.
  func inflate(
    _ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int
  ) throws(WebSocketError) {
    guard !input.isEmpty else { return }
    let base = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
    stream.pointee.avail_in = uInt(input.count)
    defer { stream.pointee.next_in = nil }
    while true {
      stream.pointee.next_out = scratch.baseAddress?.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = uInt(scratch.count)
      let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
      let produced = scratch.count - Int(stream.pointee.avail_out)
      guard output.count + produced <= limit else { throw .messageTooLarge(limit: limit) }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<produced]))
      switch status {
      case Z_OK:
        if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
      case Z_STREAM_END:
        // A final block: the next message starts a new stream (the window is gone anyway).
        inflateReset(stream)
        if stream.pointee.avail_in == 0 { return }
      case Z_BUF_ERROR:
        if stream.pointee.avail_in == 0 { return }
      default:
        let why = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        throw .protocolViolation("a compressed message is not valid deflate data: \(why)")
      }
    }
  }

  /// The end of a message: the next one starts afresh if the server keeps no context.
  func messageEnded() {
    if resetsPerMessage { inflateReset(stream) }
  }
}
