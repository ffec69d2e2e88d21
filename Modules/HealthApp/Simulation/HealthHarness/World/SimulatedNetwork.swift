import Foundation
import Synchronization
import WeftCore
import WeftNetworking

/// The simulated network between the app and `SimulatedHealthServer`: a WeftNetworking
/// `SimulatedTransport` (routes, seeded latency, injected faults) plus request timeouts that
/// settle deterministically.
///
/// `SimulatedTransport`'s own timeout fault hangs until the caller cancels, which needs a
/// timer racing the request in a second task. Here a timeout is instead a sleep of
/// `requestTimeout` on the app's clock after the server has applied the request, then
/// `TransportError.timedOut` — the same outcome for the client ("no answer in time; the
/// server may have applied it"), in one sequential task.
///
/// ```swift
/// network.setLatency(.milliseconds(40), jitter: .milliseconds(20))
/// network.inject(NetworkFaultSpec(.serverError(status: 503), count: 2))
/// network.inject(NetworkFaultSpec(.timeout, rate: 0.25, path: "/metrics/{id}"))
/// network.clearFaults()
/// ```
///
/// - Complexity: O(r + f) per request, r = routes, f = fault rules.
/// - Note: Isolation: thread-safe; `Sendable`.
/// - Note: Allocations: those of `SimulatedTransport` per request.
public final class SimulatedNetwork: Transport {
  struct TimeoutRule {
    var schedule: FaultRule.Schedule
    var path: PathPattern?
  }

  struct TimeoutState {
    var rules: [TimeoutRule] = []
    var random: SeededRandom
  }

  /// The transport holding the server's routes, the latency model and the other faults.
  public let transport: SimulatedTransport
  /// How long the client waits for an answer before giving up.
  public let requestTimeout: Duration
  private let clock: any Clock<Duration>
  private let timeouts: Locked<TimeoutState>
  private let timedOut = Atomic<Int>(0)

  /// Makes the network.
  ///
  /// - Parameters:
  ///   - seed: seeds latency, probabilistic faults and garbage bodies.
  ///   - clock: the clock latency and timeouts sleep on (the runtime's `RuntimeClock` in the
  ///     simulated configuration).
  ///   - latency: the initial latency model.
  ///   - requestTimeout: how long a timed-out request hangs.
  ///
  /// - Complexity: O(1).
  public init(
    seed: UInt64, clock: any Clock<Duration>, latency: LatencyModel = .none,
    requestTimeout: Duration = .seconds(15)
  ) {
    transport = SimulatedTransport(seed: seed, clock: clock, latency: latency)
    self.clock = clock
    self.requestTimeout = requestTimeout
    timeouts = Locked(TimeoutState(random: SeededRandom(seed: seed ^ 0x7469_6D65_6F75_7473)))
  }

  /// - Complexity: O(1).
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard takeTimeout(for: request) else { return try await transport.send(request) }
    // The simulated timeout: the request reaches the server (it may apply), the caller
    // gets `timedOut` below.
    _ = try? await transport.send(request)  // try?: a timeout loses the answer, error or not
    try await clock.sleep(for: requestTimeout)
    timedOut.add(1, ordering: .relaxed)
    throw TransportError.timedOut
  }

  /// Sets the latency: each request waits `base` plus a seeded uniform share of `jitter`.
  ///
  /// - Complexity: O(1).
  public func setLatency(_ base: Duration, jitter: Duration = .zero) {
    if base == .zero && jitter == .zero {
      transport.setLatency(.none)
    } else if jitter == .zero {
      transport.setLatency(.fixed(base))
    } else {
      transport.setLatency(.uniform(base...(base + jitter)))
    }
  }

  /// Adds a fault rule. Rules are tried in the order added; the first that matches a
  /// request (and, for a rate, draws a hit) applies.
  ///
  /// - Complexity: O(1).
  public func inject(_ fault: NetworkFaultSpec) {
    let path = fault.path.map(PathPattern.init)
    let simulated: SimulatedFault
    switch fault.kind {
    case .timeout:
      timeouts.withLock { $0.rules.append(TimeoutRule(schedule: fault.schedule, path: path)) }
      return
    case .drop: simulated = .dropConnection
    case .serverError(let status): simulated = .serverError(status: status)
    case .rateLimited(let after): simulated = .tooManyRequests(retryAfter: after)
    case .truncated: simulated = .truncatedBody
    case .garbage: simulated = .garbageBody
    }
    transport.inject(FaultRule(simulated, schedule: fault.schedule, path: path))
  }

  /// Removes every fault rule.
  ///
  /// - Complexity: O(1).
  public func clearFaults() {
    transport.clearFaults()
    timeouts.withLock { $0.rules.removeAll() }
  }

  /// Requests the server received (timed-out ones included).
  public var requestCount: Int { transport.requestCount }

  /// Requests that timed out.
  public var timedOutCount: Int { timedOut.load(ordering: .relaxed) }

  private func takeTimeout(for request: HTTPRequest) -> Bool {
    timeouts.withLock { state in
      for index in state.rules.indices {
        let rule = state.rules[index]
        if let path = rule.path, path.match(request.url.path) == nil { continue }
        switch rule.schedule {
        case .always:
          return true
        case .times(let remaining) where remaining > 0:
          state.rules[index].schedule = .times(remaining - 1)
          return true
        case .times:
          continue
        case .probability(let probability):
          if state.random.nextUnit() < probability { return true }
        }
      }
      return false
    }
  }
}
