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

  public var description: String {
    switch self {
    case .offline(let message): "offline (\(message))"
    case .timedOut: "the transport timed out"
    case .cancelled: "cancelled"
    case .cannotConnect(let message): "cannot connect to the server (\(message))"
    case .connectionLost(let message): "the connection was lost (\(message))"
    case .failed(let message): message
    }
  }
}
