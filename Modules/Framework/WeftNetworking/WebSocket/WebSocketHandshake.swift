import Foundation

/// The client side of the RFC 6455 opening handshake: the upgrade request and the check of
/// the server's answer. Pure; the connection feeds it bytes.
///
/// - Complexity: O(request) to build; O(response header) to parse.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the request bytes; the parsed header.
public struct WebSocketHandshake: Sendable, Equatable {
  /// The GUID RFC 6455 appends to the key before hashing.
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
  /// The longest response header accepted before ``WebSocketError/handshakeFailed(_:)``.
  public static let maxResponseHeader = 16 * 1024

  /// The `Sec-WebSocket-Key`: 16 random bytes, base64.
  public let key: String
  /// The request to write, as bytes.
  public let request: [UInt8]
  /// The subprotocols offered in `Sec-WebSocket-Protocol`, in order of preference.
  public let subprotocols: [String]
  /// permessage-deflate as offered in `Sec-WebSocket-Extensions`, nil when not offered.
  public let compression: WebSocketCompression?

  /// What a valid answer settled: how long its header was and the subprotocol the server
  /// chose among those offered.
  ///
  /// - Complexity: O(1) to copy.
  /// - Note: Isolation: a value type; any isolation.
  public struct Accepted: Sendable, Equatable {
    /// How many bytes the response header took (frames may follow in the same read).
    public var headerLength: Int
    /// The server's `Sec-WebSocket-Protocol`, nil when it chose none.
    public var subprotocol: String?
    /// What permessage-deflate settled, nil when the server did not accept it.
    public var deflate: WebSocketDeflateParameters?
  }

  /// Builds the upgrade request for `path` on `host:port`, with a key drawn from `random`,
  /// `headers` added as they are and `subprotocols` offered (none: no header).
  ///
  /// - Complexity: O(request length).
  public init(
    host: String, port: Int, path: String, headers: [(String, String)] = [],
    subprotocols: [String] = [], compression: WebSocketCompression? = nil,
    random: inout some RandomNumberGenerator
  ) {
    // Callers pass a generator with storage (`MaskingKeySource`), never the empty
    // `SystemRandomNumberGenerator`: ThreadSanitizer crashed on `inout` access to it.
    var keyBytes = [UInt8](repeating: 0, count: 16)
    for index in keyBytes.indices { keyBytes[index] = UInt8.random(in: 0...255, using: &random) }
    key = Data(keyBytes).base64EncodedString()
    var text = "GET \(path.isEmpty ? "/" : path) HTTP/1.1\r\n"
    text += "Host: \(host):\(port)\r\n"
    text += "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    text += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
    if !subprotocols.isEmpty {
      text += "Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))\r\n"
    }
    self.subprotocols = subprotocols
    self.compression = compression
    if let compression { text += "Sec-WebSocket-Extensions: \(compression.offer)\r\n" }
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "\r\n"
    request = Array(text.utf8)
  }

  /// The `Sec-WebSocket-Accept` value a server must answer `key` with.
  public static func acceptValue(forKey key: String) -> String {
    Data(sha1(Array((key + guid).utf8))).base64EncodedString()
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key }

  /// Parses the server's answer from the start of `bytes`.
  ///
  /// - Returns: nil while the header is incomplete; otherwise how many bytes the header
  ///   took (frames may follow in the same read).
  /// - Throws: as ``accept(_:)``.
  /// - Complexity: O(response header).
  public func parseResponse(_ bytes: some Collection<UInt8>) throws(WebSocketError) -> Int? {
    try accept(bytes)?.headerLength
  }

  /// Parses the server's answer from the start of `bytes`.
  ///
  /// - Returns: nil while the header is incomplete; otherwise what the answer settled.
  /// - Throws: ``WebSocketError/handshakeFailed(_:)`` naming what was wrong: not HTTP, a
  ///   status other than 101, a missing upgrade header, a wrong `Sec-WebSocket-Accept`, a
  ///   subprotocol or an extension that was not offered (RFC 6455 §4.1: the client must fail
  ///   the connection), or a header over ``maxResponseHeader``.
  /// - Complexity: O(response header).
  public func accept(_ bytes: some Collection<UInt8>) throws(WebSocketError) -> Accepted? {
    let array = Array(bytes.prefix(Self.maxResponseHeader + 4))
    // Fail early on garbage: an HTTP answer starts with "HTTP/".
    let prefix = Array("HTTP/".utf8)
    let seen = min(array.count, prefix.count)
    guard array[..<seen].elementsEqual(prefix[..<seen]) else {
      throw .handshakeFailed("the answer is not HTTP: \(Self.printable(array.prefix(40)))")
    }
    guard let end = Self.headerEnd(array) else {
      if array.count > Self.maxResponseHeader {
        throw .handshakeFailed("response header longer than \(Self.maxResponseHeader) bytes")
      }
      return nil
    }
    let lines = String(decoding: array[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let status = lines[0].split(separator: " ", maxSplits: 2)
    guard status.count >= 2, let code = Int(status[1]) else {
      throw .handshakeFailed("bad status line \"\(lines[0])\"")
    }
    guard code == 101 else {
      throw .handshakeFailed("status \(code) instead of 101 (\"\(lines[0])\")")
    }
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      // A repeated field is one comma-separated list (RFC 9110 §5.3): two subprotocol lines
      // are two choices, which fails below.
      fields[name] = fields[name].map { "\($0), \(value)" } ?? value
    }
    guard fields["upgrade"]?.lowercased() == "websocket" else {
      throw .handshakeFailed("no \"Upgrade: websocket\" header")
    }
    guard
      fields["connection"]?.lowercased().split(separator: ",").contains(where: {
        $0.trimmingCharacters(in: .whitespaces) == "upgrade"
      }) == true
    else { throw .handshakeFailed("no \"Connection: Upgrade\" header") }
    let expected = Self.acceptValue(forKey: key)
    guard fields["sec-websocket-accept"] == expected else {
      throw .handshakeFailed(
        "Sec-WebSocket-Accept is \(fields["sec-websocket-accept"] ?? "missing"), expected \(expected)"
      )
    }
    var deflate: WebSocketDeflateParameters?
    if let extensions = fields["sec-websocket-extensions"], !extensions.isEmpty {
      guard let compression else {
        throw .handshakeFailed("the server chose extensions none were asked for: \(extensions)")
      }
      deflate = try compression.accept(extensions)
    }
    let chosen = fields["sec-websocket-protocol"]
    if let chosen, !subprotocols.contains(chosen) {
      throw .handshakeFailed(
        subprotocols.isEmpty
          ? "the server chose the subprotocol \"\(chosen)\"; none was offered"
          : "the server chose the subprotocol \"\(chosen)\", which was not offered "
            + "(offered: \(subprotocols.joined(separator: ", ")))")
    }
    return Accepted(headerLength: end + 4, subprotocol: chosen, deflate: deflate)
  }

  private static func headerEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index
    }
    return nil
  }

  private static func printable(_ bytes: some Collection<UInt8>) -> String {
    String(bytes.map { (32..<127).contains($0) ? Character(UnicodeScalar($0)) : "." })
  }
}
