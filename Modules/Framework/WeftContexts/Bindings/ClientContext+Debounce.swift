import WeftCore

/// Debounced bindings: only the last value written within a quiet window reaches the
/// client.
extension ClientContext {
  /// A binding whose writes reach the client only after `window` passes without another
  /// write; then the last value is written, as one update. Until then `get()` reads the
  /// pending value, so an editor shows what was typed.
  ///
  /// ```swift
  /// let query = context.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)
  /// query.set("s"); query.set("sw"); query.set("swift")   // one update: "swift"
  /// ```
  ///
  /// Time diagram (window 300 ms, one column per 100 ms tick):
  ///
  /// ```
  /// tick      0    1    2    3    4    5    6
  /// set       a         b                      (b restarts the window)
  /// written                       b
  /// ```
  ///
  /// > Important: With a `TestClock`, wait for the timer (`waitForSleepers(count:)`), then
  /// > advance the clock, then `await waitForWrites()`. A pending value is dropped if the context
  /// > is released first; `flushDebouncedWrites()` writes pending values at once.
  ///
  /// - Parameters:
  ///   - keyPath: the value to bind.
  ///   - window: the quiet time that must pass before writing.
  ///   - clock: the clock the window is measured on (inject a `TestClock` in tests).
  /// - Complexity: `set` is O(1) plus one sleep registration on `clock`.
  /// - Note: Isolation: MainActor; the timer runs as a MainActor task.
  /// - Note: Allocations: one task per `set` (the timer), one more for the write.
  public func bind<Value: Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    debouncedFor window: Duration, clock: any Clock<Duration>
  ) -> ContextBinding<Value> {
    let debouncer = Debouncer<C, Value>(keyPath: keyPath, window: window, clock: clock)
    debouncers.append(WeakFlusher(debouncer))
    let mirror = self.mirror
    return ContextBinding(
      get: { debouncer.pending ?? mirror.snapshot.state[keyPath: keyPath] },
      set: { [weak self] value in
        guard let self else { return }
        debouncer.schedule(value, in: self)
      })
  }

  /// Writes every pending debounced value now (for example when a form is submitted),
  /// cancelling their timers.
  ///
  /// - Complexity: O(b), b = debounced bindings made by this context.
  public func flushDebouncedWrites() {
    debouncers.removeAll { $0.flusher == nil }
    for entry in debouncers { entry.flusher?.flush() }
  }
}

/// A debounced binding's pending value and timer.
@MainActor
final class Debouncer<C: Client, Value: Sendable>: Flushing {
  let keyPath: any WritableKeyPath<C.State, Value> & Sendable
  let window: Duration
  let clock: any Clock<Duration>
  private(set) var pending: Value?
  private var generation = 0
  private var timer: Task<Void, Never>?
  private weak var context: ClientContext<C>?

  init(
    keyPath: any WritableKeyPath<C.State, Value> & Sendable, window: Duration,
    clock: any Clock<Duration>
  ) {
    self.keyPath = keyPath
    self.window = window
    self.clock = clock
  }

  /// Makes `value` pending and restarts the window.
  func schedule(_ value: Value, in context: ClientContext<C>) {
    self.context = context
    pending = value
    generation += 1
    timer?.cancel()
    let generation = self.generation
    let tracker = context.pendingWork
    let key = tracker.makeKey()
    let deadline = Deadline(clock, after: window)
    // MainActor-isolated, so it cannot start before `start` below ran.
    let task = Task { [weak self, weak tracker] in
      defer { tracker?.finish(key) }
      do {
        try await deadline.sleep()
      } catch {
        return
      }
      await self?.fire(generation)
    }
    timer = task
    tracker.start(
      key, .init(wait: { await task.value }, cancel: { task.cancel() }, isDue: deadline.isDue))
  }

  /// Writes the pending value if no later `schedule` superseded `generation`.
  private func fire(_ generation: Int) async {
    guard generation == self.generation, let value = pending, let context else { return }
    timer = nil
    let keyPath = self.keyPath
    await context.enqueue { client in await client.update { $0[keyPath: keyPath] = value } }
      .value
    if generation == self.generation { pending = nil }
  }

  func flush() {
    guard let value = pending, let context else { return }
    generation += 1
    timer?.cancel()
    timer = nil
    let keyPath = self.keyPath
    let generation = self.generation
    context.enqueue(
      { client in await client.update { $0[keyPath: keyPath] = value } },
      then: { [weak self] _ in if self?.generation == generation { self?.pending = nil } })
  }
}

/// A point in time on an erased clock: sleep until it, or ask whether it passed.
struct Deadline: Sendable {
  let sleep: @Sendable () async throws -> Void
  let isDue: @Sendable () -> Bool

  init(_ clock: any Clock<Duration>, after window: Duration) {
    self = Self.make(clock, after: window)
  }

  private init(
    sleep: @escaping @Sendable () async throws -> Void, isDue: @escaping @Sendable () -> Bool
  ) {
    self.sleep = sleep
    self.isDue = isDue
  }

  private static func make<Erased: Clock<Duration>>(
    _ clock: Erased, after window: Duration
  ) -> Deadline {
    let deadline = clock.now.advanced(by: window)
    return Deadline(
      sleep: { try await clock.sleep(until: deadline, tolerance: nil) },
      isDue: { clock.now >= deadline })
  }
}

/// What `flushDebouncedWrites()` calls.
@MainActor
protocol Flushing: AnyObject {
  func flush()
}

/// A weak reference to a debouncer, kept by its context for `flushDebouncedWrites()`.
@MainActor
struct WeakFlusher {
  weak var flusher: (any Flushing)?

  init(_ flusher: any Flushing) { self.flusher = flusher }
}
