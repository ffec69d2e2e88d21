/// Why a WebSocket failed: a broken frame, a message over the limit, a bad opening handshake,
/// a timeout, the socket itself, or TLS (`wss://`).
///
/// - Complexity: O(1) to copy.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the strings it carries.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The peer broke RFC 6455 framing (close code 1002); the string says how.
  case protocolViolation(String)
  /// A text message (or a close reason) that is not valid UTF-8 (close code 1007).
  case invalidUTF8
  /// A message (all its fragments together) longer than the limit (close code 1009).
  case messageTooLarge(limit: Int)
  /// The server's answer to the opening handshake was not a WebSocket upgrade.
  case handshakeFailed(String)
  /// The server did not answer the dial or the opening handshake in time.
  case connectTimedOut
  /// Nothing arrived for longer than the idle timeout.
  case idleTimedOut
  /// The connection was closed (by either side, with the close frame's code and reason).
  case closed(code: UInt16?, reason: String)
  /// A socket call failed; the string names the call and `errno`'s text.
  case socket(String)
  /// The URL is not a `ws://` or `wss://` URL this transport can dial.
  case unsupportedURL(String)
  /// `wss://`: the server's certificate for `host` was refused. `reason` is OpenSSL's verify
  /// error and its number, e.g. "self-signed certificate (X509 verify error 18)",
  /// "hostname mismatch (X509 verify error 62)", "certificate has expired (X509 verify error 10)".
  case certificateRejected(host: String, reason: String)
  /// `wss://`: TLS with `host` failed other than by certificate verification: a server that
  /// does not speak TLS, no common protocol version, a trust file that cannot be read, or a
  /// build without OpenSSL. `reason` carries OpenSSL's error text.
  case tls(host: String, reason: String)

  /// The close code a client sends when it fails the connection for this error.
  public var closeCode: UInt16 {
    switch self {
    case .protocolViolation: 1002
    case .invalidUTF8: 1007
    case .messageTooLarge: 1009
    default: 1001
    }
  }

  public var description: String {
    switch self {
    case .protocolViolation(let why): "WebSocket protocol violation: \(why)"
    case .invalidUTF8: "WebSocket text is not valid UTF-8"
    case .messageTooLarge(let limit): "WebSocket message longer than the \(limit)-byte limit"
    case .handshakeFailed(let why): "WebSocket handshake failed: \(why)"
    case .connectTimedOut: "WebSocket connect timed out"
    case .idleTimedOut: "WebSocket idle timeout: nothing arrived in time"
    case .closed(let code, let reason):
      "WebSocket closed (code \(code.map(String.init) ?? "none")\(reason.isEmpty ? "" : ", \(reason)"))"
    case .socket(let why): "WebSocket socket error: \(why)"
    case .unsupportedURL(let url): "not a ws:// or wss:// URL this transport can dial: \(url)"
    case .certificateRejected(let host, let reason):
      "WebSocket TLS: the certificate of \(host) was rejected: \(reason)"
    case .tls(let host, let reason): "WebSocket TLS with \(host) failed: \(reason)"
    }
  }
}
