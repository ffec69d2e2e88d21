import WeftCore

/// The MainActor copy of one client's latest snapshot, shared by every context on that
/// client and kept current by WeftCore's coalesced MainActor fan-out.
///
/// One mirror exists per client (looked up by the client's cell); it subscribes once, to
/// every commit, so its cost per commit burst is one MainActor call however many contexts
/// read it. A context whose dependency is delivered first in a job catches the mirror up
/// from the delivered version, so the order of deliveries within a job never shows a
/// context an older state than the one it was told about.
///
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the mirror and its subscription, once per client.
@MainActor
final class StateMirror<State: Sendable> {
  let cell: StateCell<State>
  private(set) var snapshot: Snapshot<State>
  private var subscription: StateSubscription?

  private init(cell: StateCell<State>) {
    self.cell = cell
    self.snapshot = cell.snapshot
    let selector = StateSelector<State, Bool>(id: MirrorSelector()) { _ in true }
    subscription = cell.observeOnMainActor(selector.deliveringEveryCommit()) {
      [weak self] change in
      self?.catchUp(to: change.version)
    }
    // Subscribed first, read second: a commit in between is delivered, never lost.
    catchUp(to: cell.version)
  }

  /// Reads the cell's snapshot if the mirror is older than `version`.
  ///
  /// - Complexity: O(1); one lock when it reads.
  func catchUp(to version: UInt64) {
    if version > snapshot.version { snapshot = cell.snapshot }
  }

  /// The mirror of `cell`, made on first use and shared while anyone holds it.
  static func shared(for cell: StateCell<State>) -> StateMirror<State> {
    let key = ObjectIdentifier(cell)
    if let mirror = MirrorCache.mirrors[key]?.object as? StateMirror<State> { return mirror }
    let mirror = StateMirror(cell: cell)
    MirrorCache.insert(mirror, for: key)
    return mirror
  }
}

/// Groups every mirror's subscription of one cell under one selector id.
private struct MirrorSelector: Hashable, Sendable {}

/// The live mirrors by cell. A mirror holds its cell, so a key cannot be reused by another
/// cell while its mirror lives; entries of released mirrors are dropped as the table grows.
@MainActor
private enum MirrorCache {
  struct Entry {
    weak var object: AnyObject?
  }

  static var mirrors: [ObjectIdentifier: Entry] = [:]
  static var threshold = 8

  static func insert(_ mirror: AnyObject, for key: ObjectIdentifier) {
    mirrors[key] = Entry(object: mirror)
    if mirrors.count >= threshold {
      mirrors = mirrors.filter { $0.value.object != nil }
      threshold = max(8, mirrors.count * 2)
    }
  }
}
