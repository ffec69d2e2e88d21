import Foundation

/// permessage-deflate (RFC 7692) as the client offers it: ``WebSocketConfiguration/compression``.
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.compression = WebSocketCompression()   // offered; used if the server agrees
/// ```
///
/// Messages are compressed whole with zlib and inflated frame by frame, bounded by
/// ``WebSocketConfiguration/maxMessageSize`` (a decompression bomb fails with 1009 after at
/// most 64 KiB past the limit). Control frames are never compressed.
///
/// - Complexity: O(1) to copy; compression costs O(message) CPU per message each way.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none; a connection that negotiates it holds zlib's state (≈ 300 KiB).
public struct WebSocketCompression: Sendable, Equatable {
  /// The largest window the client's compressor uses (9–15); a server may ask for less.
  public var clientMaxWindowBits: Int
  /// The largest window the server may compress with (9–15; offered when below 15).
  public var serverMaxWindowBits: Int
  /// Compress each message on its own (less memory on both sides, worse ratio).
  public var clientNoContextTakeover: Bool
  /// Ask the server to compress each message on its own.
  public var serverNoContextTakeover: Bool

  /// Makes an offer: 15-bit windows and context takeover both ways unless asked otherwise.
  public init(
    clientMaxWindowBits: Int = 15, serverMaxWindowBits: Int = 15,
    clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false
  ) {
    self.clientMaxWindowBits = clientMaxWindowBits
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverNoContextTakeover = serverNoContextTakeover
  }

  /// The `Sec-WebSocket-Extensions` offer.
  var offer: String {
    var parts = ["permessage-deflate"]
    parts.append(
      clientMaxWindowBits < 15
        ? "client_max_window_bits=\(clientMaxWindowBits)"
        : "client_max_window_bits")
    if serverMaxWindowBits < 15 { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
    if clientNoContextTakeover { parts.append("client_no_context_takeover") }
    if serverNoContextTakeover { parts.append("server_no_context_takeover") }
    return parts.joined(separator: "; ")
  }

  /// What the server's answer settles, or why it cannot be accepted (RFC 7692 §7.1).
  func accept(_ answer: String) throws(WebSocketError) -> WebSocketDeflateParameters {
    let offers = answer.split(separator: ",")
    guard offers.count == 1 else {
      throw .handshakeFailed("the server chose several extensions: \(answer)")
    }
    let parts = offers[0].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.first == "permessage-deflate" else {
      throw .handshakeFailed("the server chose an extension that was not offered: \(answer)")
    }
    var settled = WebSocketDeflateParameters(
      clientMaxWindowBits: clientMaxWindowBits, serverMaxWindowBits: serverMaxWindowBits,
      clientNoContextTakeover: clientNoContextTakeover,
      serverNoContextTakeover: serverNoContextTakeover)
    var seen: Set<String> = []
    for part in parts.dropFirst() {
      let pair = part.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
      }
      let name = pair[0]
      guard seen.insert(name).inserted else {
        throw .handshakeFailed("permessage-deflate: \(name) appears twice in \"\(answer)\"")
      }
      let bits = pair.count == 2 ? Int(pair[1]) : nil
      switch (name, pair.count) {
      case ("server_no_context_takeover", 1): settled.serverNoContextTakeover = true
      case ("client_no_context_takeover", 1): settled.clientNoContextTakeover = true
      case ("server_max_window_bits", 2):
        guard let bits, (8...serverMaxWindowBits).contains(bits) else {
          throw .handshakeFailed("permessage-deflate: bad server_max_window_bits in \"\(answer)\"")
        }
        settled.serverMaxWindowBits = bits
      case ("client_max_window_bits", 2):
        guard let bits, (8...clientMaxWindowBits).contains(bits) else {
          throw .handshakeFailed("permessage-deflate: bad client_max_window_bits in \"\(answer)\"")
        }
        guard bits >= 9 else {
          // zlib cannot deflate raw data with a 256-byte window.
          throw .handshakeFailed("permessage-deflate: client_max_window_bits=8 is not supported")
        }
        settled.clientMaxWindowBits = bits
      default:
        throw .handshakeFailed("permessage-deflate: unknown parameter \"\(part)\" in \"\(answer)\"")
      }
    }
    return settled
  }
}

/// What permessage-deflate settled for one connection.
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
public struct WebSocketDeflateParameters: Sendable, Equatable {
  /// The window the client compresses with.
  public var clientMaxWindowBits: Int
  /// The largest window the server compresses with.
  public var serverMaxWindowBits: Int
  /// The client compresses each message on its own.
  public var clientNoContextTakeover: Bool
  /// The server compresses each message on its own.
  public var serverNoContextTakeover: Bool
}
