import AuthFeature
import Foundation
import HealthDomain
import WeftCore
import WeftDependencies
import WeftNetworking
import WeftPersistence

/// Everything the app takes from the outside world, chosen once at the composition root:
/// `live(…)` for the real network, an on-disk database and the real clock. A harness makes
/// its own with the memberwise initializer (HealthHarness's simulated world: an in-process
/// backend, a database in a temporary folder, virtual time); this module knows none.
///
/// No feature knows which one it runs with: each gets an `HTTPClient`, a `Database`, a clock
/// and a `now` from `AppRuntime.build(_:)`.
///
/// ```swift
/// let live = AppDependencies.live(
///   baseURL: URL(string: "https://api.example.com")!, databasePath: path)
/// let app = try await AppRuntime.build(live)
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
  /// Where the session token is kept (never in the database): the platform's secure store
  /// in the live configuration, memory in the simulated one. It outlives launches, as the
  /// database file does.
  public var secrets: any SecureStorage
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

  /// Makes a configuration from its parts (what a harness does; an app uses `live(…)`).
  ///
  /// - Complexity: O(1).
  public init(
    mode: Mode, monitor: PerformanceMonitor, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, makeID: @escaping @Sendable () -> UUID, baseURL: URL,
    transport: any Transport, realtimeTransport: (any RealtimeTransport)?,
    database: DatabaseProvider, secrets: any SecureStorage, requestTimeout: Duration?,
    retryPolicy: RetryPolicy, reconnectPolicy: ReconnectPolicy, heartbeat: HeartbeatPolicy?,
    seed: UInt64
  ) {
    self.mode = mode
    self.monitor = monitor
    self.clock = clock
    self.now = now
    self.makeID = makeID
    self.baseURL = baseURL
    self.transport = transport
    self.realtimeTransport = realtimeTransport
    self.database = database
    self.secrets = secrets
    self.requestTimeout = requestTimeout
    self.retryPolicy = retryPolicy
    self.reconnectPolicy = reconnectPolicy
    self.heartbeat = heartbeat
    self.seed = seed
  }

  /// The database migrations of the whole app: the shared health schema, then auth's.
  public static let migrations: [Migration] =
    HealthSchema.migrations + AuthSchema.migrations(after: HealthSchema.migrations.count)

  /// The live configuration: `URLSessionTransport`, a database file at `databasePath`, and
  /// the clock, date and ids of the dependency values in scope (`DependencyValues.current`:
  /// outside any override, the continuous clock, the system date and random ids). The realtime feed (when `realtimeURL`
  /// is given) uses ``liveRealtimeTransport(url:)``. The session token goes to `secrets`:
  /// by default the platform's store (`SecureStorageCapability.platform(service:)`: the
  /// Keychain, or an owner-only file in the user's data directory on Linux).
  ///
  /// - Parameters:
  ///   - baseURL: the server.
  ///   - databasePath: where the database file lives (created if missing).
  ///   - realtimeURL: the WebSocket endpoint, or nil for no realtime connection.
  ///   - monitor: the performance monitor.
  ///   - requestTimeout: the per-attempt timeout.
  ///   - secrets: where the session token is kept.
  ///
  /// - Complexity: O(1).
  public static func live(
    baseURL: URL, databasePath: String, realtimeURL: URL? = nil,
    monitor: PerformanceMonitor = PerformanceMonitor(enabled: false),
    requestTimeout: Duration = .seconds(15),
    secrets: any SecureStorage = SecureStorageCapability.platform(service: "weft.health").storage
  ) -> AppDependencies {
    var configuration = Database.Configuration()
    configuration.monitor = monitor.component(named: "Database")
    let dependencies = DependencyValues.current
    let (date, uuid) = (dependencies.date, dependencies.uuid)
    return AppDependencies(
      mode: .live, monitor: monitor, clock: dependencies.continuousClock,
      now: { date() }, makeID: { uuid() }, baseURL: baseURL, transport: URLSessionTransport(),
      realtimeTransport: realtimeURL.map { liveRealtimeTransport(url: $0) },
      database: DatabaseProvider(
        .file(path: databasePath), migrations: migrations, configuration: configuration),
      secrets: secrets, requestTimeout: requestTimeout, retryPolicy: RetryPolicy(),
      reconnectPolicy: ReconnectPolicy(), heartbeat: HeartbeatPolicy(),
      seed: UInt64.random(in: 0...UInt64.max))
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
}
