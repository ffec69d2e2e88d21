import Foundation
import WeftCore
import WeftNetworking

/// The realtime side of the simulated backend: a `RealtimeTransport` whose connections
/// receive what the simulation pushes, and that can drop or refuse them on demand.
///
/// WeftNetworking's `SimulatedRealtimeTransport` plays a script fixed when a connection
/// opens; the simulator needs to push an insight *now*, so this server keeps the open
/// socket and delivers into it.
///
/// ```swift
/// let server = SimulatedRealtimeServer()
/// let connection = RealtimeConnection(transport: server, heartbeat: nil, clock: clock)
/// await connection.connect()
/// server.push(.text(#"{"title":"Hi"}"#))   // arrives on connection.messages
/// server.drop("reset")                     // the connection reconnects
/// ```
///
/// - Complexity: O(1) per dial, push or drop.
/// - Note: Isolation: thread-safe (one lock); `Sendable`.
/// - Note: Allocations: one socket per accepted dial; queued messages until received.
public final class SimulatedRealtimeServer: RealtimeTransport {
  struct State {
    var refusing = false
    var socket: SimulatedSocket?
    var dials = 0
    var sent: [RealtimeMessage] = []
  }

  private let state = Locked(State())

  /// Makes a server that accepts every dial.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Accepts a dial (one open connection at a time), or refuses it while refusing.
  ///
  /// - Complexity: O(1).
  public func connect() async throws -> any RealtimeSocket {
    let socket = try state.withLock { state -> SimulatedSocket in
      state.dials += 1
      if state.refusing { throw ConnectionError.refused("simulated: the realtime server refused") }
      let socket = SimulatedSocket(server: self)
      state.socket = socket
      return socket
    }
    return socket
  }

  /// Delivers `message` to the open connection.
  ///
  /// - Returns: whether a connection was open to receive it.
  /// - Complexity: O(1).
  @discardableResult
  public func push(_ message: RealtimeMessage) -> Bool {
    guard let socket = state.withLock({ $0.socket }), socket.isOpen else { return false }
    socket.deliver(message)
    return true
  }

  /// Drops the open connection with `reason`.
  ///
  /// - Returns: whether a connection was open.
  /// - Complexity: O(1).
  @discardableResult
  public func drop(_ reason: String = "simulated drop") -> Bool {
    guard
      let socket = state.withLock({ state -> SimulatedSocket? in
        defer { state.socket = nil }
        return state.socket
      }), socket.isOpen
    else { return false }
    socket.fail(reason)
    return true
  }

  /// Refuses (or accepts again) new dials.
  ///
  /// - Complexity: O(1).
  public func setRefusing(_ refusing: Bool) { state.withLock { $0.refusing = refusing } }

  /// Whether a connection is open.
  public var isConnected: Bool { state.withLock { $0.socket?.isOpen ?? false } }

  /// Dials received so far.
  public var dialCount: Int { state.withLock { $0.dials } }

  /// Messages the app sent.
  public var sentMessages: [RealtimeMessage] { state.withLock { $0.sent } }

  func recordSent(_ message: RealtimeMessage) { state.withLock { $0.sent.append(message) } }
}

/// One accepted connection of `SimulatedRealtimeServer`.
final class SimulatedSocket: RealtimeSocket {
  struct State {
    var queue: [RealtimeMessage] = []
    var waiter: CheckedContinuation<RealtimeMessage, any Error>?
    var failure: String?
  }

  private let server: SimulatedRealtimeServer
  private let state = Locked(State())

  init(server: SimulatedRealtimeServer) { self.server = server }

  var isOpen: Bool { state.withLock { $0.failure == nil } }

  func send(_ message: RealtimeMessage) async throws {
    if let failure = state.withLock({ $0.failure }) { throw TransportError.connectionLost(failure) }
    server.recordSent(message)
  }

  func receive() async throws -> RealtimeMessage {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<RealtimeMessage, any Error>) in
        let outcome = state.withLock { state -> Result<RealtimeMessage, any Error>? in
          if !state.queue.isEmpty { return .success(state.queue.removeFirst()) }
          if let failure = state.failure {
            return .failure(TransportError.connectionLost(failure))
          }
          if Task.isCancelled { return .failure(CancellationError()) }
          state.waiter = continuation
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<RealtimeMessage, any Error>? in
        defer { state.waiter = nil }
        return state.waiter
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  func sendPing(onPong: @escaping @Sendable ((any Error)?) -> Void) {
    if let failure = state.withLock({ $0.failure }) {
      onPong(TransportError.connectionLost(failure))
    } else {
      onPong(nil)
    }
  }

  func close() { fail("closed") }

  func deliver(_ message: RealtimeMessage) {
    let waiter = state.withLock { state -> CheckedContinuation<RealtimeMessage, any Error>? in
      guard state.failure == nil else { return nil }
      guard let waiter = state.waiter else {
        state.queue.append(message)
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume(returning: message)
  }

  func fail(_ reason: String) {
    let waiter = state.withLock { state -> CheckedContinuation<RealtimeMessage, any Error>? in
      guard state.failure == nil else { return nil }
      state.failure = reason
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(throwing: TransportError.connectionLost(reason))
  }
}
