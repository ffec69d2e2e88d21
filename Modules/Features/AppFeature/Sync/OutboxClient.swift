import WeftCore

/// The outbox as the app shows it.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct OutboxState: Sendable, Hashable {
  /// Entries waiting to be delivered (not dead-lettered).
  public var pending = 0
  /// Entries given up on after too many failed attempts.
  public var deadLetters = 0
  /// Entries delivered since launch.
  public var delivered = 0
  /// Sync passes run since launch.
  public var passes = 0
  /// The last delivery error, if the last pass had one.
  public var lastError: String?

  /// The launch state.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Every row in the outbox: pending and dead-lettered.
  public var total: Int { pending + deadLetters }
}

/// The client owning `OutboxState`; the sync engine commits to it.
///
/// - Note: Isolation: an actor; reads are synchronous from any isolation.
/// - Complexity: each method is one commit: O(s + k) fan-out.
public actor OutboxClient: Client {
  /// The cell holding the state.
  public nonisolated let cell: StateCell<OutboxState>

  /// Makes the client.
  ///
  /// - Complexity: O(1).
  public init(monitor: PerformanceMonitor = .shared) {
    cell = StateCell(OutboxState(), name: "Outbox", monitor: monitor)
  }

  func setCounts(pending: Int, deadLetters: Int) {
    update { state in
      if state.pending != pending { state.pending = pending }
      if state.deadLetters != deadLetters { state.deadLetters = deadLetters }
    }
  }

  func passFinished(delivered: Int, error: String?) {
    update { state in
      state.passes += 1
      state.delivered += delivered
      state.lastError = error
    }
  }
}
