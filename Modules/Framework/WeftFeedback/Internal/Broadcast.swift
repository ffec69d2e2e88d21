import WeftCore

/// A multicast of values to any number of `AsyncStream`s, each with its own buffer.
///
/// Used for `eventsWithState` and stores' `routes`: every call to `stream(buffering:)` makes
/// a new consumer; `yield` reaches all of them in order; `finish` ends them all.
///
/// - Complexity: `yield` is O(c), c = live streams; O(1) and lock-only when there are none.
/// - Note: Isolation: thread-safe; values are yielded in the order `yield` is called.
/// - Note: Allocations: none per `yield` on the steady path (the consumer list is shared
///   copy-on-write); one stream and one registration per `stream(buffering:)`.
final class Broadcast<Element: Sendable>: Sendable {
  private struct Consumers {
    var nextID: UInt64 = 0
    var list: ContiguousArray<(id: UInt64, continuation: AsyncStream<Element>.Continuation)> = []
    var finished = false
  }

  private let consumers = Locked(Consumers())

  /// A new stream receiving every value yielded from now on.
  func stream(buffering: ChangeBuffering) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: buffering.policy(for: Element.self))
    let id = consumers.withLock { consumers -> UInt64? in
      guard !consumers.finished else { return nil }
      consumers.nextID += 1
      consumers.list.append((consumers.nextID, continuation))
      return consumers.nextID
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.consumers.withLock { $0.list.removeAll { $0.id == id } }
    }
    return stream
  }

  /// Whether any stream is listening (cheap check before building a value to yield).
  var hasConsumers: Bool { consumers.withLock { !$0.list.isEmpty } }

  /// Sends `value` to every live stream.
  func yield(_ value: Element) {
    let list = consumers.withLock { $0.list }
    for consumer in list { consumer.continuation.yield(value) }
  }

  /// Ends every stream; later `stream(buffering:)` calls return finished streams.
  func finish() {
    let list = consumers.withLock { consumers in
      consumers.finished = true
      return consumers.list
    }
    for consumer in list { consumer.continuation.finish() }
  }
}

extension ChangeBuffering {
  /// The `AsyncStream` buffering policy this choice stands for.
  func policy<Element>(for _: Element.Type) -> AsyncStream<Element>.Continuation.BufferingPolicy {
    switch self {
    case .latest: .bufferingNewest(1)
    case .newest(let count): .bufferingNewest(max(1, count))
    case .oldest(let count): .bufferingOldest(max(1, count))
    case .unbounded: .unbounded
    }
  }
}
