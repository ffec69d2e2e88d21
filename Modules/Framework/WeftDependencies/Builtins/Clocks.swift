extension DependencyValues {
  /// The clock effects sleep on for elapsed time (delays, debounces, timers). Live:
  /// `ContinuousClock()`; test: unimplemented (a sleep reports an issue naming
  /// `DependencyValues.continuousClock`). A `TestStore` given a `TestClock` overrides it.
  public var continuousClock: any Clock<Duration> {
    get { self[ContinuousClockKey.self] }
    set { self[ContinuousClockKey.self] = newValue }
  }

  /// The clock for time that stops while the machine sleeps. Live: `SuspendingClock()`;
  /// test: unimplemented (`DependencyValues.suspendingClock`). A `TestStore` given a
  /// `TestClock` overrides it.
  public var suspendingClock: any Clock<Duration> {
    get { self[SuspendingClockKey.self] }
    set { self[SuspendingClockKey.self] = newValue }
  }
}

private enum ContinuousClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = ContinuousClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(
    endpoint: "DependencyValues.continuousClock")
}

private enum SuspendingClockKey: DependencyKey {
  static let liveValue: any Clock<Duration> = SuspendingClock()
  static let testValue: any Clock<Duration> = UnimplementedClock(
    endpoint: "DependencyValues.suspendingClock")
}

/// A clock a test did not provide: a sleep reports an issue naming `endpoint` and throws
/// `CancellationError` (no time passes). Reading `now` is allowed (the continuous clock's).
///
/// - Complexity: O(1).
/// - Note: Isolation: a `Sendable` value; any isolation.
public struct UnimplementedClock: Clock, Sendable {
  /// The endpoint the report names (`"DependencyValues.continuousClock"`).
  public let endpoint: String
  private let fileID: StaticString
  private let filePath: StaticString
  private let line: UInt
  private let column: UInt

  /// A clock that reports `endpoint` when slept on, at the line that made it.
  ///
  /// - Complexity: O(1).
  public init(
    endpoint: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.endpoint = endpoint
    (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
  }

  public var now: ContinuousClock.Instant { .now }
  public var minimumResolution: Duration { .zero }

  public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    DependencyIssues.report(
      DependencyIssues.unimplementedMessage(endpoint),
      at: DependencyIssues.Location(fileID: fileID, filePath: filePath, line: line, column: column))
    throw CancellationError()
  }
}
