/// What a socket without close codes, subprotocols or control frames reports: the simulated
/// transport's and URLSession's sockets, and sockets written for tests.
///
/// - Complexity: O(1).
/// - Note: Isolation: as the socket.
extension RealtimeSocket {
  /// Closes the socket; the code and reason are not sent.
  public func close(code: UInt16, reason: String) { close() }

  /// None.
  public var subprotocol: String? { nil }

  /// nil: this socket cannot tell how it ended.
  public func closure() async -> RealtimeClosure? { nil }

  /// A stream that finishes at once.
  public var controlFrames: AsyncStream<RealtimeControlFrame> {
    AsyncStream { $0.finish() }
  }

  /// nil: tasks run where they would anyway.
  public var taskExecutor: (any TaskExecutor)? { nil }
}
