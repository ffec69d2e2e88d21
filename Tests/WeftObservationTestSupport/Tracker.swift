import Observation
import WeftCore

// Shared by WeftObservationTests and WeftObservationDocsTests (one owner: this target).

/// A stand-in for a SwiftUI view body: `render()` runs `body` inside
/// `withObservationTracking`, and the first change to anything it read counts one
/// invalidation and marks it dirty (Observation fires `onChange` once per tracking, as
/// SwiftUI re-renders once and re-tracks).
@MainActor
public final class Tracker<Seen> {
  private let body: () -> Seen
  private let counter = InvalidationCounter()
  /// What the last render read.
  public private(set) var seen: Seen
  /// Renders so far (the first included).
  public private(set) var renders = 1

  /// Renders `body` once, tracked.
  public init(_ body: @escaping () -> Seen) {
    self.body = body
    var first: Seen?
    withObservationTracking {
      first = body()
    } onChange: { [counter] in
      counter.fire()
    }
    seen = first!
  }

  /// Invalidations so far (onChange calls).
  public var invalidations: Int { counter.count }

  /// Whether an invalidation came since the last render.
  public var isDirty: Bool { counter.isDirty }

  /// Renders again if invalidated (what SwiftUI does on the next frame); returns whether it
  /// did.
  @discardableResult
  public func renderIfDirty() -> Bool {
    guard counter.takeDirty() else { return false }
    var next: Seen?
    withObservationTracking {
      next = body()
    } onChange: { [counter] in
      counter.fire()
    }
    seen = next!
    renders += 1
    return true
  }
}

/// Counts `onChange` calls; `onChange` is `@Sendable`, so the count sits behind a lock.
public final class InvalidationCounter: Sendable {
  /// A counter at 0, clean.
  public init() {}

  private let state = Locked((count: 0, dirty: false))

  /// Counts one `onChange` and marks the tracker dirty.
  public func fire() {
    state.withLock {
      $0.count += 1
      $0.dirty = true
    }
  }
  /// `onChange` calls so far.
  public var count: Int { state.withLock { $0.count } }
  /// Whether an `onChange` came since the last `takeDirty()`.
  public var isDirty: Bool { state.withLock { $0.dirty } }

  /// Returns whether dirty, and clears it.
  public func takeDirty() -> Bool {
    state.withLock { state in
      defer { state.dirty = false }
      return state.dirty
    }
  }
}
