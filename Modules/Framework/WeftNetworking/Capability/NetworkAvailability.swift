import Synchronization
import WeftCore

/// Whether the network is usable now, as one flag any isolation can read without waiting,
/// plus a stream of changes for those who adapt (show offline mode, pause sync).
///
/// ```swift
/// let availability = NetworkAvailability()
/// availability.set(false)                    // from a reachability source, or a test
/// availability.isAvailable                   // false: requests fail fast with .offline
/// ```
///
/// - Complexity: `isAvailable` is one atomic load; `set` is O(w), w = change streams.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: one continuation per `changes()` stream.
public final class NetworkAvailability: Sendable {
  private let flag: Atomic<Bool>
  private let watchers = Locked<[Int: AsyncStream<Bool>.Continuation]>([:])
  private let nextID = Atomic<Int>(0)

  /// Makes the flag, available by default.
  public init(available: Bool = true) { flag = Atomic(available) }

  /// Whether the network is usable now.
  public var isAvailable: Bool { flag.load(ordering: .acquiring) }

  /// Sets the flag; watchers hear about it only when it changes.
  public func set(_ available: Bool) {
    let old = flag.exchange(available, ordering: .acquiringAndReleasing)
    guard old != available else { return }
    for watcher in watchers.withLock({ Array($0.values) }) { watcher.yield(available) }
  }

  /// Every change from now on (the current value first), newest kept if the reader lags.
  public func changes() -> AsyncStream<Bool> {
    let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let id = nextID.add(1, ordering: .relaxed).newValue
    watchers.withLock { $0[id] = continuation }
    continuation.onTermination = { [weak self] _ in
      _ = self?.watchers.withLock { $0.removeValue(forKey: id) }
    }
    continuation.yield(isAvailable)
    return stream
  }
}
