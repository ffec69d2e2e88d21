import Observation
import WeftCore

/// A stand-in for a SwiftUI view body: `render()` runs `body` inside
/// `withObservationTracking`, and the first change to anything it read counts one
/// invalidation and marks it dirty (Observation fires `onChange` once per tracking, as
/// SwiftUI re-renders once and re-tracks).
@MainActor
final class Tracker<Seen> {
  private let body: () -> Seen
  private let counter = InvalidationCounter()
  /// What the last render read.
  private(set) var seen: Seen
  /// Renders so far (the first included).
  private(set) var renders = 1

  init(_ body: @escaping () -> Seen) {
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
  var invalidations: Int { counter.count }

  /// Whether an invalidation came since the last render.
  var isDirty: Bool { counter.isDirty }

  /// Renders again if invalidated (what SwiftUI does on the next frame); returns whether it
  /// did.
  @discardableResult
  func renderIfDirty() -> Bool {
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
final class InvalidationCounter: Sendable {
  private let state = Locked((count: 0, dirty: false))

  func fire() {
    state.withLock {
      $0.count += 1
      $0.dirty = true
    }
  }
  var count: Int { state.withLock { $0.count } }
  var isDirty: Bool { state.withLock { $0.dirty } }

  func takeDirty() -> Bool {
    state.withLock { state in
      defer { state.dirty = false }
      return state.dirty
    }
  }
}
