/// Sends one HTTP request and returns the server's response, whatever its status.
///
/// Two implementations ship: ``URLSessionTransport`` (the network) and
/// ``SimulatedTransport`` (an in-process backend in virtual time). ``HTTPClient`` adds
/// endpoints, middleware and typed errors on top.
///
/// > Important: Implementations must return promptly when the calling task is cancelled,
/// > cancelling their own work, and throw ``TransportError/cancelled`` (or
/// > `CancellationError`). Timeouts and cancellation in ``HTTPClient`` rely on it.
///
/// - Complexity: one exchange per call; see each implementation.
/// - Note: Isolation: implementations are `Sendable` and callable from any isolation,
///   concurrently.
/// - Note: Allocations: the response; see each implementation.
public protocol Transport: Sendable {
  /// Sends `request` and returns the response; any status is a response, not an error.
  ///
  /// - Throws: ``TransportError`` (or `CancellationError`) when no response arrives.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse

  /// Sends `request` and returns the response, refusing a body larger than
  /// `responseBodyLimit` bytes with ``TransportError/responseTooLarge(limit:declaredLength:)``.
  ///
  /// ``HTTPClient`` calls this one. A transport that reads from the network should stop
  /// reading once the limit is passed (``URLSessionTransport`` refuses a larger
  /// `Content-Length` before the body and counts bytes as they arrive); the default
  /// implementation calls ``send(_:)`` and checks the whole body afterwards, which suits
  /// in-process transports whose bodies already exist.
  ///
  /// - Throws: ``TransportError`` (or `CancellationError`).
  /// - Complexity: as ``send(_:)``; the default adds an O(1) size check.
  /// - Note: Isolation: as ``send(_:)``.
  /// - Note: Allocations: as ``send(_:)``; at most `responseBodyLimit` bytes of body for a
  ///   streaming implementation.
  func send(_ request: HTTPRequest, responseBodyLimit: Int) async throws -> HTTPResponse
}

extension Transport {
  /// Calls ``send(_:)`` and fails if the body it returns is larger than `responseBodyLimit`.
  ///
  /// - Complexity: as ``send(_:)`` plus O(1).
  /// - Note: Isolation: as ``send(_:)``.
  /// - Note: Allocations: the whole body, before the check (see the requirement).
  public func send(_ request: HTTPRequest, responseBodyLimit: Int) async throws -> HTTPResponse {
    let response = try await send(request)
    guard response.body.count <= responseBodyLimit else {
      throw TransportError.responseTooLarge(limit: responseBodyLimit, declaredLength: nil)
    }
    return response
  }
}

/// Why a transport produced no response.
///
/// - Complexity: O(1).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the message string.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No network path at all.
  case offline(String)
  /// The transport's own timeout fired.
  case timedOut
  /// The calling task was cancelled and the call was cancelled with it.
  case cancelled
  /// The server could not be reached (refused, unknown host).
  case cannotConnect(String)
  /// The connection broke before the response was complete.
  case connectionLost(String)
  /// Any other failure.
  case failed(String)
  /// The response body is larger than the client's limit (``HTTPClient/responseBodyLimit``):
  /// `declaredLength` is the `Content-Length` that announced it, or `nil` when the bytes that
  /// arrived passed the limit. The transport stopped reading there; nothing past the limit is
  /// held.
  case responseTooLarge(limit: Int, declaredLength: Int?)
  /// The response has more header fields, or more header bytes (names and values), than
  /// the client's ``HTTPClient/responseHeaderLimits``: `count` fields of `bytes` bytes
  /// against the limits.
  case responseHeadersTooLarge(count: Int, bytes: Int, limits: ResponseHeaderLimits)

  public var description: String {
    switch self {
    case .offline(let message): "offline (\(message))"
    case .timedOut: "the transport timed out"
    case .cancelled: "cancelled"
    case .cannotConnect(let message): "cannot connect to the server (\(message))"
    case .connectionLost(let message): "the connection was lost (\(message))"
    case .failed(let message): message
    case .responseTooLarge(let limit, let declared?):
      "the response body is larger than the limit of \(byteCount(limit)): its Content-Length "
        + "is \(byteCount(declared)); the body was not read"
    case .responseTooLarge(let limit, nil):
      "the response body is larger than the limit of \(byteCount(limit)): more than that "
        + "arrived"
    case .responseHeadersTooLarge(let count, let bytes, let limits):
      "the response has \(count) header fields of \(byteCount(bytes)), over the limits of "
        + "\(limits.count) fields and \(byteCount(limits.bytes))"
    }
  }
}

/// `bytes` for a message: whole mebibytes as `16 MiB`, anything else as `1500 bytes`.
func byteCount(_ bytes: Int) -> String {
  let mebibyte = 1024 * 1024
  if bytes >= mebibyte && bytes % mebibyte == 0 { return "\(bytes / mebibyte) MiB" }
  return bytes == 1 ? "1 byte" : "\(bytes) bytes"
}
