import Foundation
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
  /// What is wrong with syncing now, or `nil` when nothing is.
  ///
  /// Set by a pass that hits a database error, and while the outbox holds an entry whose
  /// delivery failed (waiting for its retry, or dead-lettered): the most recent such error.
  /// Cleared as soon as a count of the outbox finds no failed entry — so after the outbox
  /// drains fully it is always `nil`. The past is in `lastFailure`.
  public var lastError: String?
  /// The most recent error any pass hit, with when: kept after syncing recovers (history,
  /// for diagnostics and "last failed at" displays). `nil` until a pass fails.
  public var lastFailure: SyncFailure?

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

  func passFinished(delivered: Int, lastError: String?, failure: SyncFailure?) {
    update { state in
      state.passes += 1
      state.delivered += delivered
      state.lastError = lastError
      if let failure { state.lastFailure = failure }
    }
  }

  /// Clears `lastError` (one commit, only when it was set).
  func clearLastError() {
    guard cell.state.lastError != nil else { return }
    update { $0.lastError = nil }
  }
}

/// An error a sync pass hit, and when.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct SyncFailure: Sendable, Hashable, CustomStringConvertible {
  /// What went wrong (a delivery error, or a database error of the outbox).
  public var message: String
  /// When the pass that hit it finished (the app's clock: virtual time when simulated).
  public var date: Date

  /// Makes a failure record.
  ///
  /// - Complexity: O(1).
  public init(message: String, date: Date) {
    self.message = message
    self.date = date
  }

  public var description: String { "\(message) (at \(date.formatted(.iso8601)))" }
}
