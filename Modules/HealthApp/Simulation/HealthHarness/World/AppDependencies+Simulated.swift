import AppFeature
import Foundation
import WeftCore
import WeftDependencies
import WeftNetworking
import WeftPersistence

extension AppDependencies {
  /// The simulated configuration: `environment`'s backend behind its `SimulatedNetwork`, its
  /// `SimulatedRealtimeServer`, an in-memory database (or a file at `databasePath`), its
  /// `RuntimeClock` (virtual time on the deterministic runtime, the continuous clock off it),
  /// and ids from `seed`. It differs from the live configuration in its dependencies only:
  /// the same features, observations and pacing. The clock, the date, the ids and the
  /// database's jitter come from the dependency values in scope overridden by
  /// `environment.overrideDependencies(_:seed:)`: the simulated configuration is an override
  /// set of WeftDependencies, as a test's is.
  ///
  /// On the deterministic runtime (weft-sim, or `DeterministicTestHost` in tests), two runs
  /// with the same seed and the same actions produce the same states.
  ///
  /// - Parameters:
  ///   - environment: the simulated world (`SimulatedHealthApp` makes one per app).
  ///   - seed: seeds ids, the outbox's retry jitter, backoff jitter.
  ///   - databasePath: a database file (to test persistence across relaunches), or nil for
  ///     memory.
  ///   - monitor: the performance monitor.
  ///   - secrets: where the session token is kept: memory by default (it outlives
  ///     relaunches, not the process); a `FileSecureStorage` to keep a session between
  ///     processes.
  ///
  /// - Complexity: O(1).
  public static func simulated(
    in environment: SimulationEnvironment, seed: UInt64, databasePath: String? = nil,
    monitor: PerformanceMonitor = PerformanceMonitor(enabled: false),
    secrets: any SecureStorage = InMemorySecureStorage()
  ) -> AppDependencies {
    var configuration = Database.Configuration()
    configuration.monitor = monitor.component(named: "Database")
    var dependencies = DependencyValues.current
    environment.overrideDependencies(&dependencies, seed: seed)
    let (date, uuid, random) = (dependencies.date, dependencies.uuid, dependencies.random)
    configuration.now = { date() }
    // 53 random bits in 0..<1, as `SeededRandom.nextUnit()` draws them.
    configuration.random = { Double(random.next() >> 11) * 0x1.0p-53 }
    return AppDependencies(
      mode: .simulated, monitor: monitor, clock: dependencies.continuousClock,
      now: { date() }, makeID: { uuid() },
      baseURL: URL(string: "https://health.sim.weft")!, transport: environment.network,
      realtimeTransport: environment.realtime,
      database: DatabaseProvider(
        databasePath.map { .file(path: $0) } ?? .memory, migrations: migrations,
        configuration: configuration),
      secrets: secrets, requestTimeout: nil, retryPolicy: RetryPolicy(),
      reconnectPolicy: ReconnectPolicy(maxAttempts: 6, baseDelay: .seconds(1), jitter: 0.5),
      heartbeat: nil, seed: seed)
  }
}
