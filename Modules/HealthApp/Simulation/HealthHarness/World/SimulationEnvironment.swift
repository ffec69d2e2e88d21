import Foundation
import WeftCore
import WeftRuntime

/// The simulated world: virtual time, the backend, the network between, and the realtime
/// server — with the controls the simulator drives.
///
/// - Note: Isolation: `Sendable`; every part is thread-safe.
/// - Complexity: O(1) to make and copy.
public struct SimulationEnvironment: Sendable {
  /// The simulated date at time zero by default: the deterministic runtime's wall clock at a
  /// launch (2026-01-15T09:00:00Z), so that the backend's calendar and the app's `Date()`
  /// agree; weft-sim passes the flow's `date` instead when it has one.
  public static let referenceDate = Date(
    timeIntervalSince1970: TimeInterval(DeterministicRuntime.defaultWallClock.components.seconds))

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
