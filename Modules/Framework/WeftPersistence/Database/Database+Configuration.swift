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
    /// The permission bits of the database file and of every sidecar SQLite makes beside it
    /// (`-wal`, `-shm`, `-journal`): owner read and write only (`0o600`) by default, whatever
    /// the process umask. A new file is created with this mode before SQLite opens it, and
    /// SQLite gives each sidecar it (re)creates the main file's bits. Widen it (`0o640`) only
    /// for a file another account must read. An existing file is not changed unless
    /// `tightensExistingFileMode` is set; one that grants more is reported in
    /// `Database.diagnostics`. Ignored for in-memory databases.
    public var fileMode: UInt32 = 0o600
    /// Whether opening an existing file that grants more than `fileMode` (a file created
    /// before Weft set modes, or by another tool) sets it, and its sidecars, to `fileMode`.
    /// Each change is listed in `Database.diagnostics`. Off by default: the app decides.
    public var tightensExistingFileMode = false
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// The Data Protection class SQLite gives the database file and its sidecars (Apple's
    /// SQLite `SQLITE_OPEN_FILEPROTECTION_*` open flags), or `nil` to inherit the container's
    /// default class. `.complete` makes the files unreadable while the device is locked,
    /// so a database used in the background needs `.completeUntilFirstUserAuthentication`.
    public var dataProtection: DataProtection?
    #endif

    /// The defaults.
    public init() {}
  }

  #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
  /// A Data Protection class for the database's files (`Configuration.dataProtection`).
  /// - Note: Isolation: a `Sendable` value.
  public enum DataProtection: Sendable, Hashable {
    /// Readable only while the device is unlocked.
    case complete
    /// Files already open stay readable after the device locks; new ones cannot be created.
    case completeUnlessOpen
    /// Readable from the first unlock after a restart on (the system's default class).
    case completeUntilFirstUserAuthentication
    /// No protection beyond the device's encryption.
    case none

    /// Apple's `SQLITE_OPEN_FILEPROTECTION_*` value (its sqlite3.h), written out so the
    /// build does not depend on which SQLite header the module map finds.
    var openFlag: Int32 {
      switch self {
      case .complete: 0x0010_0000
      case .completeUnlessOpen: 0x0020_0000
      case .completeUntilFirstUserAuthentication: 0x0030_0000
      case .none: 0x0040_0000
      }
    }
  }
  #endif

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

extension Database.Configuration {
  /// The open flags the configuration adds to SQLite's (the Data Protection class on Apple
  /// platforms that have one; none elsewhere).
  var extraOpenFlags: Int32 {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    return dataProtection?.openFlag ?? 0
    #else
    return 0
    #endif
  }
}
