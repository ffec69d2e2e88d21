import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WebSocket sockets on Foundation's `URLSessionWebSocketTask`.
///
/// `connect` resumes the task and waits for the answer to a first ping, so a connection
/// that cannot be opened fails in `connect` (as ``ConnectionError/refused(_:)``) rather than
/// at the first message. The error thrown is the task's own (`task.error`), which names the
/// cause; the ping callback's is a generic "connection lost".
///
/// > Important: On Linux, FoundationNetworking implements WebSockets on libcurl, and only a
/// > libcurl built with WebSocket support can open them. Debian 12's libcurl 7.88.1 is not:
/// > every dial fails with `NSURLErrorDomain` code -1002 (`unsupportedURL`), "WebSockets
/// > not supported by libcurl". The tests pin that behaviour (see `docs/networking.md`);
/// > use ``SimulatedRealtimeTransport`` there, or a libcurl ≥ 7.86 built with
/// > `--enable-websockets`.
///
/// - Complexity: one task per socket; messages are whole frames in memory.
/// - Note: Isolation: thread-safe; URLSession calls back on its own queue.
/// - Note: Allocations: one `URLSessionWebSocketTask` per dial.
public final class URLSessionRealtimeTransport: RealtimeTransport {
  private let session: URLSession
  private let url: URL

  /// Makes a transport for `url` (`ws://` or `wss://`) with its own ephemeral session.
  public init(url: URL) {
    self.url = url
    self.session = URLSession(configuration: .ephemeral)
  }

  deinit { session.invalidateAndCancel() }

  public func connect() async throws -> any RealtimeSocket {
    let socket = WebSocket(task: session.webSocketTask(with: url))
    socket.task.resume()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        socket.sendPing { error in
          // The ping's own error is generic (-1005 on Linux); the task's says why.
          if let error {
            continuation.resume(throwing: socket.task.error ?? error)
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      socket.close()
    }
    return socket
  }
}

/// One WebSocket.
private final class WebSocket: RealtimeSocket {
  let task: URLSessionWebSocketTask

  init(task: URLSessionWebSocketTask) { self.task = task }

  func send(_ message: RealtimeMessage) async throws {
    switch message {
    case .text(let text): try await task.send(.string(text))
    case .data(let data): try await task.send(.data(data))
    }
  }

  func receive() async throws -> RealtimeMessage {
    try await withTaskCancellationHandler {
      switch try await task.receive() {
      case .string(let text): return .text(text)
      case .data(let data): return .data(data)
      @unknown default: throw TransportError.failed("unknown WebSocket message kind")
      }
    } onCancel: {
      task.cancel(with: .goingAway, reason: nil)
    }
  }

  func sendPing(onPong: @escaping @Sendable ((any Error)?) -> Void) {
    task.sendPing { error in onPong(error) }
  }

  func close() { task.cancel(with: .normalClosure, reason: nil) }

  /// Foundation names the codes it knows; an application's own (3000–4999) is sent as 1000
  /// where its `CloseCode` has no case for it.
  func close(code: UInt16, reason: String) {
    task.cancel(
      with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code)) ?? .normalClosure,
      reason: Data(reason.utf8))
  }
}
