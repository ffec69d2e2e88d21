import WeftCore

/// Runs announced pieces of work one after another, in the order they were enqueued, on
/// one task: how the app applies changes to `AppState` that come from several clients, so
/// "authenticating" can never land after "authenticated".
///
/// Each `enqueue` begins a piece of work in the tracker before returning; it ends when the
/// work has run (or when the queue is shut down before running it).
///
/// - Complexity: O(1) per enqueue.
/// - Note: Isolation: `enqueue` from any isolation; the work runs on the queue's task.
/// - Note: Allocations: one stream element per piece of work; one task for the queue.
public final class SerialWork: Sendable {
  /// A piece of work.
  public typealias Work = @Sendable () async -> Void

  private let tracker: WorkTracker
  private let continuation: AsyncStream<(String, Work)>.Continuation
  private let books = Outstanding()
  private let runner: Task<Void, Never>

  /// Starts the queue's task; its work is announced to `tracker`.
  ///
  /// - Complexity: O(1); one task.
  public init(tracker: WorkTracker) {
    self.tracker = tracker
    let (stream, continuation) = AsyncStream.makeStream(of: (String, Work).self)
    self.continuation = continuation
    let books = self.books
    runner = Task {
      for await (name, work) in stream {
        await work()
        if books.take(name) { tracker.end(name) }
      }
    }
  }

  /// Enqueues `work`, announced as `name`.
  ///
  /// - Complexity: O(1).
  public func enqueue(_ name: String, _ work: @escaping Work) {
    guard books.add(name) else { return }
    tracker.begin(name)
    continuation.yield((name, work))
  }

  /// Stops the queue; work not yet run is dropped and its announcements ended. Returns once
  /// the work running now has finished.
  ///
  /// - Complexity: O(q), q = work still queued.
  public func shutDown() async {
    continuation.finish()
    runner.cancel()
    for name in books.closeAndTakeAll() { tracker.end(name) }
    await runner.value
  }
}

/// The names of announced, not yet ended work; closed at shutdown.
final class Outstanding: Sendable {
  private struct State {
    var names: [String: Int] = [:]
    var closed = false
  }

  private let state = Locked(State())

  /// Records `name`; false once closed.
  func add(_ name: String) -> Bool {
    state.withLock { state in
      guard !state.closed else { return false }
      state.names[name, default: 0] += 1
      return true
    }
  }

  /// Removes one `name`; false if none was recorded (already ended at shutdown).
  func take(_ name: String) -> Bool {
    state.withLock { state in
      guard let count = state.names[name], count > 0 else { return false }
      state.names[name] = count == 1 ? nil : count - 1
      return true
    }
  }

  /// Closes and returns every recorded name (with repeats).
  func closeAndTakeAll() -> [String] {
    state.withLock { state in
      state.closed = true
      defer { state.names = [:] }
      return state.names.flatMap { Array(repeating: $0.key, count: $0.value) }
    }
  }
}
