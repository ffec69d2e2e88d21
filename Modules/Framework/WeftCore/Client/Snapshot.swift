/// A committed state value and the version it was committed at.
///
/// Versions start at 0 for the initial state and grow by one per commit, so two snapshots
/// of one client compare by version: a subscriber never sees a lower version after a higher.
///
/// - Note: Isolation: a `Sendable` value; read it anywhere.
public struct Snapshot<State: Sendable>: Sendable {
  /// The commit count that produced this state (0 = initial).
  public let version: UInt64
  /// The state as committed.
  public let state: State

  /// Makes a snapshot; clients make these, callers mostly read them.
  public init(version: UInt64, state: State) {
    self.version = version
    self.state = state
  }
}

extension Snapshot: Equatable where State: Equatable {}

/// One delivered change: the selected value and the version of the commit it came from.
///
/// - Note: Isolation: a `Sendable` value when `Value` is.
public struct Change<Value> {
  /// The selected value after the commit.
  public let value: Value
  /// The version of the newest commit this delivery reflects. Coalesced deliveries may skip
  /// intermediate versions, never the last one.
  public let version: UInt64

  /// Makes a change.
  public init(value: Value, version: UInt64) {
    self.value = value
    self.version = version
  }
}

extension Change: Sendable where Value: Sendable {}
extension Change: Equatable where Value: Equatable {}
