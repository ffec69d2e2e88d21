import AuthFeature
import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence
import WeftRuntime

/// Everything the app takes from the outside world, chosen once at the composition root:
/// `live(…)` for the real network, an on-disk database and the real clock; `simulated(…)`
/// for the in-process backend, an in-memory (or temporary) database and virtual time.
///
/// No feature knows which one it runs with: each gets an `HTTPClient`, a `Database`, a clock
/// and a `now` from `AppRuntime.build(_:)`.
///
/// ```swift
/// let live = AppDependencies.live(
///   baseURL: URL(string: "https://api.example.com")!, databasePath: path)
/// let simulated = AppDependencies.simulated(seed: 7)
/// let app = try await AppRuntime.build(simulated)
/// ```
///
/// - Note: Isolation: a `Sendable` value; everything it holds is thread-safe.
/// - Complexity: O(1) to make and copy.
public struct AppDependencies: Sendable {
  /// Which world the app runs in.
  ///
  /// - Complexity: O(1) to make and compare.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public enum Mode: String, Sendable, Hashable {
    case live
    case simulated
  }

  /// Which world the app runs in.
  public var mode: Mode
  /// The monitor every state cell, the database and the HTTP metrics report to.
  public var monitor: PerformanceMonitor
  /// The clock the app sleeps on (retries, backoff, reconnect delays).
  public var clock: any Clock<Duration>
  /// The current date.
  public var now: @Sendable () -> Date
  /// Makes ids for new records.
  public var makeID: @Sendable () -> UUID
  /// The server's base URL.
  public var baseURL: URL
  /// How requests reach the server.
  public var transport: any Transport
  /// How the realtime connection reaches the server, if the app has one.
  public var realtimeTransport: (any RealtimeTransport)?
  /// Opens the database at each launch.
  public var database: DatabaseProvider
  /// The per-attempt timeout the HTTP client enforces (nil: the transport times out itself,
  /// as the simulated network does).
  public var requestTimeout: Duration?
  /// The HTTP client's retry policy.
  public var retryPolicy: RetryPolicy
  /// The realtime connection's reconnect policy.
  public var reconnectPolicy: ReconnectPolicy
  /// The realtime connection's heartbeat (nil: none).
  public var heartbeat: HeartbeatPolicy?
  /// Seeds retry jitter and reconnect jitter.
  public var seed: UInt64
  /// The simulated world's controls, in the simulated configuration.
  public var simulation: SimulationEnvironment?

  /// The database migrations of the whole app: the shared health schema, then auth's.
  public static let migrations: [Migration] =
    HealthSchema.migrations + [AuthSchema.createSession(version: HealthSchema.migrations.count + 1)]

  /// The live configuration: `URLSessionTransport`, a database file at `databasePath`, the
  /// continuous clock, the system date and random ids. The realtime feed (when `realtimeURL`
  /// is given) uses ``liveRealtimeTransport(url:)``.
  ///
  /// - Parameters:
  ///   - baseURL: the server.
  ///   - databasePath: where the database file lives (created if missing).
  ///   - realtimeURL: the WebSocket endpoint, or nil for no realtime connection.
  ///   - monitor: the performance monitor.
  ///   - requestTimeout: the per-attempt timeout.
  ///
  /// - Complexity: O(1).
  public static func live(
    baseURL: URL, databasePath: String, realtimeURL: URL? = nil,
    monitor: PerformanceMonitor = PerformanceMonitor(enabled: false),
    requestTimeout: Duration = .seconds(15)
  ) -> AppDependencies {
    var configuration = Database.Configuration()
    configuration.monitor = monitor.component(named: "Database")
    return AppDependencies(
      mode: .live, monitor: monitor, clock: ContinuousClock(),
      now: { Date() }, makeID: { UUID() }, baseURL: baseURL, transport: URLSessionTransport(),
      realtimeTransport: realtimeURL.map { liveRealtimeTransport(url: $0) },
      database: DatabaseProvider(
        .file(path: databasePath), migrations: migrations, configuration: configuration),
      requestTimeout: requestTimeout, retryPolicy: RetryPolicy(),
      reconnectPolicy: ReconnectPolicy(), heartbeat: HeartbeatPolicy(),
      seed: UInt64.random(in: 0...UInt64.max), simulation: nil)
  }

  /// The realtime transport the live configuration uses for `url`.
  ///
  /// On Linux, `POSIXWebSocketTransport` (RFC 6455 on POSIX sockets), for `ws://` and
  /// `wss://` (TLS through the system OpenSSL, the certificate verified against the URL's
  /// host with the system trust store): `URLSessionWebSocketTask` cannot open WebSockets
  /// there (swift-corelibs-foundation implements it on libcurl, which the distributions build
  /// without WebSockets). On Apple platforms, `URLSessionRealtimeTransport`
  /// (`URLSessionWebSocketTask`), for `ws://` and `wss://`.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the transport is `Sendable`.
  public static func liveRealtimeTransport(url: URL) -> any RealtimeTransport {
    #if canImport(FoundationNetworking)
    return POSIXWebSocketTransport(url: url)
    #else
    return URLSessionRealtimeTransport(url: url)
    #endif
  }

  /// The simulated configuration: `SimulatedHealthServer` behind a `SimulatedNetwork`, a
  /// `SimulatedRealtimeServer`, an in-memory database (or a file at `databasePath`),
  /// WeftRuntime's `RuntimeClock` (virtual time on the deterministic runtime, the continuous
  /// clock off it) starting at `start`, and ids from `seed`. It differs from the live
  /// configuration in its dependencies only: the same features, observations and pacing.
  ///
  /// On the deterministic runtime (weft-sim, or `DeterministicTestHost` in tests), two runs
  /// with the same seed and the same actions produce the same states.
  ///
  /// - Parameters:
  ///   - seed: seeds latency, faults, ids, backoff jitter.
  ///   - databasePath: a database file (to test persistence across relaunches), or nil for
  ///     memory.
  ///   - start: the simulated date at time zero.
  ///   - latency: the network's base latency.
  ///   - jitter: the network's latency jitter.
  ///   - monitor: the performance monitor (its queue, `monitor.deliveries`, also delivers
  ///     the simulated backend's observable counts, so the app and its backend drain in one
  ///     job).
  ///   - backendFile: where the simulated backend keeps its state between processes, or
  ///     nil for memory only.
  ///
  /// - Complexity: O(1).
  public static func simulated(
    seed: UInt64 = 1, databasePath: String? = nil,
    start: Date = SimulationEnvironment.referenceDate, latency: Duration = .milliseconds(40),
    jitter: Duration = .zero, monitor: PerformanceMonitor = PerformanceMonitor(enabled: false),
    backendFile: URL? = nil
  ) -> AppDependencies {
    let environment = SimulationEnvironment(
      seed: seed, start: start, latency: latency, jitter: jitter, backendFile: backendFile,
      deliveries: monitor.deliveries)
    var configuration = Database.Configuration()
    configuration.monitor = monitor.component(named: "Database")
    configuration.now = environment.now
    let jitterSource = SeededIDs(seed: seed ^ 0x6F75_7462_6F78)
    configuration.random = { jitterSource.nextUnit() }
    let ids = SeededIDs(seed: seed ^ 0x6964_7300)
    return AppDependencies(
      mode: .simulated, monitor: monitor, clock: environment.clock,
      now: environment.now, makeID: { ids.next() },
      baseURL: URL(string: "https://health.sim.weft")!, transport: environment.network,
      realtimeTransport: environment.realtime,
      database: DatabaseProvider(
        databasePath.map { .file(path: $0) } ?? .memory, migrations: migrations,
        configuration: configuration),
      requestTimeout: nil, retryPolicy: RetryPolicy(),
      reconnectPolicy: ReconnectPolicy(maxAttempts: 6, baseDelay: .seconds(1), jitter: 0.5),
      heartbeat: nil, seed: seed, simulation: environment)
  }
}

/// The simulated world: virtual time, the backend, the network between, and the realtime
/// server — with the controls the simulator drives.
///
/// - Note: Isolation: `Sendable`; every part is thread-safe.
/// - Complexity: O(1) to make and copy.
public struct SimulationEnvironment: Sendable {
  /// The simulated date at time zero by default: 2025-03-10 12:00:00 UTC.
  public static let referenceDate = Date(timeIntervalSince1970: 1_741_608_000)

  /// The clock the app sleeps on: `RuntimeClock`, virtual time on the deterministic
  /// runtime.
  public let clock: RuntimeClock
  /// The simulated date at time zero.
  public let start: Date
  /// The backend.
  public let server: SimulatedHealthServer
  /// The network between the app and the backend.
  public let network: SimulatedNetwork
  /// The realtime side of the backend.
  public let realtime: SimulatedRealtimeServer

  /// Makes the world.
  ///
  /// - Complexity: O(1) plus seeding the server (a dozen records).
  /// `backendFile`, when given, is where the backend keeps its state between processes
  /// (see `SimulatedHealthServer.init(now:ids:sessionLifetime:file:deliveries:)`);
  /// `deliveries` is the MainActor delivery queue of the backend's observable counts (the
  /// app's, so one job drains both).
  ///
  /// - Note: Isolation: any.
  public init(
    seed: UInt64, start: Date, latency: Duration, jitter: Duration, backendFile: URL? = nil,
    deliveries: MainActorDeliveries = .shared
  ) {
    let clock = RuntimeClock()
    self.clock = clock
    self.start = start
    server = SimulatedHealthServer(
      now: Self.now(start: start, clock: clock), ids: SeededIDs(seed: seed ^ 0x7365_7276),
      file: backendFile, deliveries: deliveries)
    network = SimulatedNetwork(seed: seed, clock: clock)
    network.setLatency(latency, jitter: jitter)
    server.install(on: network.transport)
    realtime = SimulatedRealtimeServer()
  }

  /// The simulated date now.
  public var now: @Sendable () -> Date { Self.now(start: start, clock: clock) }

  /// `start` plus the virtual time elapsed.
  private static func now(start: Date, clock: RuntimeClock) -> @Sendable () -> Date {
    {
      let offset = clock.now.offset.components
      return start.addingTimeInterval(
        Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }
  }
}
