import WeftCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Database {
  /// How a database is opened and behaves. The defaults suit an app's local store.
  ///
  /// ```swift
  /// var configuration = Database.Configuration()
  /// configuration.now = { clock.now }          // deterministic outbox times in tests
  /// configuration.monitor = monitor.component(named: "Database")
  /// ```
  ///
  /// - Note: Isolation: a `Sendable` value; its closures may be called from any connection.
  public struct Configuration: Sendable {
    /// How long a statement waits for another connection's lock before failing with
    /// `PersistenceError.busy`.
    public var busyTimeout: Duration = .seconds(5)
    /// Reader connections, so reads run concurrently with each other and with the write
    /// (WAL). In-memory databases always read on the writer.
    public var maximumReaders: Int = 4
    /// The WAL is truncated back to this many bytes after a checkpoint, bounding its size.
    public var journalSizeLimit: Int = 4 * 1024 * 1024
    /// SQLite checkpoints the WAL into the database once it holds this many pages.
    public var autoCheckpointPages: Int = 1000
    /// `.normal` (the default with WAL) keeps every committed transaction through an app
    /// crash or a kill; `.full` also through a power loss, at an fsync per commit.
    public var synchronous: Synchronous = .normal
    /// Prepared statements kept per connection before the cache is cleared.
    public var statementCacheCapacity: Int = 128
    /// Retry and dead-letter rules for the outbox.
    public var outboxPolicy = OutboxPolicy()
    /// The wall-clock time, for outbox schedules (stored across launches, hence a `Date`).
    public var now: @Sendable () -> Date = { Date() }
    /// A number in `0..<1` for outbox jitter; inject a constant in tests.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
    /// Where to record commits (one per write transaction), write latencies, observation
    /// fetches (as jobs) and deliveries. `nil` records nothing.
    public var monitor: ComponentMonitor?
    /// How long observations wait before re-fetching again when commits outpace their
    /// re-fetches — a commit landed on an observation while it was being re-fetched (a
    /// burst). A burst then costs about one re-fetch per interval instead of one per
    /// commit, and the value after its last commit still comes, at most this much later. A
    /// commit while no re-fetch of its observations runs is re-fetched at once, so the
    /// latency of isolated commits is unchanged. `.zero` re-fetches back to back, as fast
    /// as the readers go.
    public var observationBurstInterval: Duration = .milliseconds(1)
    /// Development builds only: when the file's schema is not the one its migrations make
    /// today (a migration was edited after it ran, or removed), erase every table and run
    /// the migrations again instead of failing or running on a stale schema. It deletes
    /// the data; set it under `#if DEBUG`, never in a release build.
    ///
    /// Checking costs one run of the migrations on an in-memory database at each open.
    public var eraseDatabaseOnSchemaChange = false

    /// The defaults.
    public init() {}
  }

  /// SQLite's `synchronous` setting.
  /// - Note: Isolation: a `Sendable` value.
  public enum Synchronous: String, Sendable {
    /// Commits survive a crash of the app; the last ones may be lost on power loss.
    case normal = "NORMAL"
    /// Commits survive a power loss too (an fsync per commit).
    case full = "FULL"
  }
}

/// What transactions need from the configuration, in one `Sendable` bundle.
struct DatabaseEnvironment: Sendable {
  let now: @Sendable () -> Date
  let random: @Sendable () -> Double
  let outboxPolicy: OutboxPolicy
  let monitor: ComponentMonitor?

  init(_ configuration: Database.Configuration) {
    self.now = configuration.now
    self.random = configuration.random
    self.outboxPolicy = configuration.outboxPolicy
    self.monitor = configuration.monitor
  }
}
