/// Runs pieces of work one after another, in the order they were enqueued, on one task: how
/// the app applies changes to `AppState` that come from several clients, so
/// "authenticating" can never land after "authenticated".
///
/// - Complexity: O(1) per enqueue.
/// - Note: Isolation: `enqueue` from any isolation; the work runs on the queue's task.
/// - Note: Allocations: one stream element per piece of work; one task for the queue.
final class SerialWork: Sendable {
  /// A piece of work.
  typealias Work = @Sendable () async -> Void

  private let continuation: AsyncStream<Work>.Continuation
  private let runner: Task<Void, Never>

  /// Starts the queue's task.
  init() {
    let (stream, continuation) = AsyncStream.makeStream(of: Work.self)
    self.continuation = continuation
    runner = Task {
      for await work in stream { await work() }
    }
  }

  /// Enqueues `work`; dropped once the queue is shut down.
  func enqueue(_ work: @escaping Work) {
    continuation.yield(work)
  }

  /// Stops the queue; work not yet run is dropped. Returns once the work running now has
  /// finished.
  func shutDown() async {
    continuation.finish()
    runner.cancel()
    await runner.value
  }
}
