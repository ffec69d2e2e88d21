import Foundation
import WeftCore

/// An in-process backend: routes (method + path pattern → handler), a latency model and
/// fault injection, all driven by a seed and an injected clock — so a run is deterministic
/// and, with a `TestClock`, takes no real time.
///
/// ```swift
/// let clock = TestClock()
/// let backend = SimulatedTransport(seed: 7, clock: clock, latency: .fixed(.milliseconds(30)))
/// backend.route(.get, "/users/{id}") { request in
///   try .json(User(id: Int(request.parameters["id"]!)!, name: "Ada"))
/// }
/// backend.inject(.serverError(status: 503), times: 2, on: .get, "/users/{id}")
/// let client = HTTPClient(baseURL: URL(string: "https://sim.test")!,
///                         transport: backend, clock: clock, middleware: [...])
/// ```
///
/// Each request, in arrival order: is logged, draws its latency and its probabilistic faults
/// from the seeded generator, sleeps the latency on the clock, then gets the fault or the
/// route's answer. A request with no route gets a 404 whose body says which route to add,
/// and is listed in ``unmatchedRequests`` so a test can insist there are none.
///
/// > Important: Determinism holds for a given arrival order. Requests sent concurrently
/// > arrive in the order the runtime schedules them; tests that assert exact draws send
/// > sequentially or use ``FaultRule/Schedule/times(_:)`` schedules.
///
/// - Complexity: O(r + f) per request, r = routes, f = fault rules.
/// - Note: Isolation: thread-safe; state is behind one lock, handlers run on the caller's
///   task, outside the lock.
/// - Note: Allocations: one log entry per request, plus the handler's response.
public final class SimulatedTransport: Transport {
  /// Answers one routed request.
  public typealias Handler = @Sendable (SimulatedRequest) async throws -> HTTPResponse

  fileprivate struct Route {
    var method: HTTPMethod
    var pattern: PathPattern
    var handler: Handler
  }

  fileprivate struct State {
    var random: SeededRandom
    var latency: LatencyModel
    var routes: [Route] = []
    var rules: [FaultRule] = []
    var log: [SimulatedExchange] = []
    var cancelled = 0
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let clock: any Clock<Duration>
  private let state: Locked<State>

  /// Makes an empty backend; `seed` fixes every latency, probabilistic fault and garbage
  /// byte it draws.
  public init(seed: UInt64 = 0, clock: any Clock<Duration>, latency: LatencyModel = .none) {
    self.clock = clock
    self.state = Locked(State(random: SeededRandom(seed: seed), latency: latency))
  }

  /// Adds a route. Routes are tried in the order they were added.
  public func route(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
    state.withLock {
      $0.routes.append(Route(method: method, pattern: PathPattern(pattern), handler: handler))
    }
  }

  /// Injects `fault` into the next `times` requests matching `method` and `path`.
  public func inject(
    _ fault: SimulatedFault, times: Int = 1, on method: HTTPMethod? = nil, _ path: String? = nil
  ) {
    inject(
      FaultRule(fault, schedule: .times(times), method: method, path: path.map(PathPattern.init)))
  }

  /// Injects `fault` into each matching request with `probability` (seeded).
  public func inject(
    _ fault: SimulatedFault, probability: Double, on method: HTTPMethod? = nil,
    _ path: String? = nil
  ) {
    inject(
      FaultRule(
        fault, schedule: .probability(probability), method: method,
        path: path.map(PathPattern.init)))
  }

  /// Adds a fault rule. The first matching rule that fires decides a request's fault.
  public func inject(_ rule: FaultRule) { state.withLock { $0.rules.append(rule) } }

  /// Removes every fault rule.
  public func clearFaults() { state.withLock { $0.rules.removeAll() } }

  /// Replaces the latency model for the requests that arrive from now on.
  public func setLatency(_ model: LatencyModel) { state.withLock { $0.latency = model } }

  /// Every request received so far, in arrival order.
  public var exchanges: [SimulatedExchange] { state.withLock { $0.log } }

  /// How many requests have arrived.
  public var requestCount: Int { state.withLock { $0.log.count } }

  /// Requests that matched no route.
  public var unmatchedRequests: [HTTPRequest] {
    state.withLock { $0.log.filter { $0.route == nil }.map(\.request) }
  }

  /// How many calls ended because their task was cancelled (by the caller or a timeout).
  public var cancelledCount: Int { state.withLock { $0.cancelled } }

  /// Waits until at least `count` requests have arrived — an explicit signal for tests, in
  /// place of sleeping or yielding.
  public func waitForRequests(count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.log.count >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let (plan, ready) = state.withLock { $0.admit(request) }
    for waiter in ready { waiter.resume() }
    do {
      if plan.fault == .offline { throw TransportError.offline("simulated: no network") }
      if plan.latency > .zero { try await clock.sleep(for: plan.latency) }
      return try await answer(request, plan: plan)
    } catch is CancellationError {
      state.withLock { $0.cancelled += 1 }
      throw TransportError.cancelled
    }
  }

  private func answer(_ request: HTTPRequest, plan: Plan) async throws -> HTTPResponse {
    switch plan.fault {
    case .timeout:
      try await suspendUntilCancelled()
      throw TransportError.cancelled
    case .dropConnection:
      throw TransportError.connectionLost("simulated: the connection dropped")
    case .offline:
      throw TransportError.offline("simulated: no network")
    case .serverError(let status):
      return .text("simulated server error", status: status)
    case .tooManyRequests(let after):
      var response = HTTPResponse.text("simulated rate limit", status: 429)
      response.headers["Retry-After"] = String(after.components.seconds)
      return response
    case .truncatedBody, .garbageBody, nil:
      var response = try await routed(request, plan: plan)
      if plan.fault == .truncatedBody {
        response.body = response.body.prefix(response.body.count / 2)
      } else if plan.fault == .garbageBody {
        response.body = plan.garbage(count: max(16, response.body.count))
      }
      return response
    }
  }

  private func routed(_ request: HTTPRequest, plan: Plan) async throws -> HTTPResponse {
    guard let handler = plan.handler else {
      return .text(
        "no simulated route for \(request.method) \(request.url.path): add one with "
          + "SimulatedTransport.route(.\(request.method.rawValue.lowercased()), "
          + "\"\(request.url.path)\") { … }",
        status: 404)
    }
    let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    let simulated = SimulatedRequest(
      request: request, parameters: plan.parameters,
      query: Dictionary(query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 }),
      sequenceNumber: plan.sequenceNumber)
    do {
      return try await handler(simulated)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      return .text("simulated handler threw: \(error)", status: 500)
    }
  }
}

/// What the backend decided for one request when it arrived.
private struct Plan {
  var sequenceNumber: Int
  var latency: Duration
  var fault: SimulatedFault?
  var handler: SimulatedTransport.Handler?
  var parameters: [String: String]
  var garbageSeed: UInt64

  func garbage(count: Int) -> Data {
    var random = SeededRandom(seed: garbageSeed)
    var bytes = Data(count: count)
    for index in 0..<count { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
    return bytes
  }
}

extension SimulatedTransport.State {
  /// Logs `request` and decides its latency, fault and route, in arrival order.
  fileprivate mutating func admit(
    _ request: HTTPRequest
  ) -> (Plan, [CheckedContinuation<Void, Never>]) {
    let latency = latency.sample(using: &random)
    var fault: SimulatedFault?
    for index in rules.indices where fault == nil && rules[index].matches(request) {
      switch rules[index].schedule {
      case .always:
        fault = rules[index].fault
      case .times(let remaining) where remaining > 0:
        fault = rules[index].fault
        rules[index].schedule = .times(remaining - 1)
      case .times:
        break
      case .probability(let probability):
        if random.nextUnit() < probability { fault = rules[index].fault }
      }
    }
    rules.removeAll { $0.schedule == .times(0) }
    var matched: (route: SimulatedTransport.Route, parameters: [String: String])?
    for route in routes where matched == nil && route.method == request.method {
      if let parameters = route.pattern.match(request.url.path) {
        matched = (route, parameters)
      }
    }
    log.append(
      SimulatedExchange(
        request: request, route: matched?.route.pattern.description, fault: fault,
        latency: latency))
    let plan = Plan(
      sequenceNumber: log.count, latency: latency, fault: fault, handler: matched?.route.handler,
      parameters: matched?.parameters ?? [:], garbageSeed: random.next())
    var ready: [CheckedContinuation<Void, Never>] = []
    waiters.removeAll { waiter in
      guard log.count >= waiter.count else { return false }
      ready.append(waiter.continuation)
      return true
    }
    return (plan, ready)
  }
}
