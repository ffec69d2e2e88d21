import Foundation
import Synchronization
import Testing
import WeftCore

@testable import WeftNetworking

/// A model the tests send and receive.
struct User: Codable, Sendable, Equatable {
  var id: Int
  var name: String
}

/// A base URL that never leaves the process (the simulated backend answers it).
let simulatedBase = URL(string: "https://sim.test")!

/// A client over `backend` with the given middleware and no default timeout, so the only
/// sleepers on `clock` are the ones a test asks for.
func makeClient(
  _ backend: SimulatedTransport, clock: TestClock, middleware: [any Middleware] = [],
  timeout: Duration? = nil
) -> HTTPClient {
  HTTPClient(
    baseURL: simulatedBase, transport: backend, clock: clock, middleware: middleware,
    defaultTimeout: timeout)
}

/// A one-shot signal: `wait()` suspends until `open()` is called (or returns at once after).
final class Gate: Sendable {
  private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isOpen = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiters.append(continuation)
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// A thread-safe counter.
final class Counter: Sendable {
  private let value = Atomic<Int>(0)

  @discardableResult
  func increment() -> Int { value.add(1, ordering: .relaxed).newValue }

  var count: Int { value.load(ordering: .relaxed) }
}

/// The error `body` threw, as a `NetworkError` (fails the test if it threw something else or
/// nothing).
func networkError<T>(
  _ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> NetworkError? {
  do {
    _ = try await body()
    Issue.record("expected a NetworkError, got a value", sourceLocation: sourceLocation)
  } catch let error as NetworkError {
    return error
  } catch {
    Issue.record("expected a NetworkError, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

/// The delay until the clock's earliest sleeper.
func pendingDelay(_ clock: TestClock) -> Duration? {
  clock.nextDeadline.map { clock.now.duration(to: $0) }
}
