import WeftCore

/// A group of headless views attached by one `views N observe PATH as NAME` step: each view
/// subscribes to the path and "re-renders" by keeping the value it was given.
///
/// The group keeps the accounting the report needs — renders, distinct views rendered,
/// wasted renders (a value equal to the one the view already showed), and the commit
/// versions that caused them — in plain counters, so a render costs a few stores.
///
/// # Performance
/// A view costs one small object, one WeftCore subscription (≈ 114 bytes) and two array
/// slots: ≈ 200 bytes. Every view of a group observes the same path, so they share one
/// selector and one comparison per commit.
///
/// - Note: Isolation: MainActor.
@MainActor
final class HeadlessViewGroup {
  let name: String
  let path: String
  let selector: String
  private(set) var views: [HeadlessSimView] = []
  private var subscriptions: [Subscription] = []

  /// Counters for the current step, shared with the group's views; `beginStep` clears them.
  let tally = ViewGroupTally()

  var renders: UInt64 { tally.renders }
  var distinctViews: UInt64 { tally.distinctViews }
  var wasted: UInt64 { tally.wasted }
  var versions: [UInt64] { tally.versions }
  var step: UInt32 { tally.step }

  init(name: String, observable: SimObservable) {
    self.name = name
    self.path = observable.name
    self.selector = observable.selector
  }

  var count: Int { views.count }

  /// Attaches `count` views to `observable`; each starts showing its current value.
  func attach(_ count: Int, to observable: SimObservable) {
    views.reserveCapacity(views.count + count)
    subscriptions.reserveCapacity(subscriptions.count + count)
    for _ in 0..<count {
      let view = HeadlessSimView(tally: tally)
      // Subscribe first, then read: a commit in between is delivered, never lost.
      subscriptions.append(
        observable.subscribe { [view] value, version in
          view.render(value, version: version)
        })
      view.value = observable.read()
      views.append(view)
    }
  }

  /// Moves every view to `observable` (the same path in a relaunched app): cancels the old
  /// subscriptions, subscribes each view again, and renders the value it now reads in the
  /// views whose shown value differs (a render without a commit version).
  ///
  /// - Complexity: O(n), n = views in the group.
  func resubscribe(to observable: SimObservable) {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions.removeAll(keepingCapacity: true)
    for view in views {
      subscriptions.append(
        observable.subscribe { [view] value, version in
          view.render(value, version: version)
        })
    }
    let value = observable.read()
    for view in views where view.value != value { view.render(value, version: nil) }
  }

  /// Detaches the last `count` views (all if `nil`); returns how many were detached.
  @discardableResult
  func detach(_ count: Int?) -> Int {
    let removing = min(count ?? views.count, views.count)
    for subscription in subscriptions.suffix(removing) { subscription.cancel() }
    subscriptions.removeLast(removing)
    views.removeLast(removing)
    return removing
  }

  func beginStep(_ step: UInt32) {
    tally.step = step
    tally.renders = 0
    tally.distinctViews = 0
    tally.wasted = 0
    tally.versions.removeAll(keepingCapacity: true)
  }

  /// The step's render causes for `--explain`.
  var cause: RenderCause? {
    guard renders > 0 else { return nil }
    return RenderCause(
      selector: selector, commitVersions: Array(Set(versions)).sorted(), views: distinctViews,
      wastedRenders: wasted)
  }
}

/// One headless view: the value it shows and the step it last rendered in.
@MainActor
final class HeadlessSimView {
  /// The group's counters. Held strongly (the tally holds no view, so there is no cycle):
  /// reading a strong `let` costs no reference-count traffic, where an `unowned` reference
  /// to the group cost an atomic retain and release on every render.
  let tally: ViewGroupTally
  // Exclusivity is not checked at run time for the per-render state (a TLS access-set
  // insert per access was 6% of a 100,000-view sweep): every access is MainActor-isolated
  // and synchronous within `render`, so no two accesses can overlap.
  @exclusivity(unchecked) var value: SimValue = .none
  @exclusivity(unchecked) private var renderedInStep: UInt32 = .max

  init(tally: ViewGroupTally) { self.tally = tally }

  /// Shows `newValue`; `version` is the commit that caused it (`nil` when the view follows a
  /// relaunched app).
  @inline(__always)
  func render(_ newValue: SimValue, version: UInt64?) {
    let tally = self.tally
    let first = renderedInStep != tally.step
    renderedInStep = tally.step
    let isWasted = newValue == value
    value = newValue
    tally.record(version, firstThisStep: first, wasted: isWasted)
  }
}

/// One view group's counters for the current step: renders, distinct views rendered,
/// wasted renders and the commit versions that caused them, in plain stored properties so
/// a render costs a few stores.
///
/// - Note: Isolation: MainActor.
@MainActor
final class ViewGroupTally {
  // Not checked for exclusivity at run time, like `HeadlessSimView`'s state: MainActor-
  // isolated, and every access is synchronous, so none can overlap another.
  @exclusivity(unchecked) var renders: UInt64 = 0
  @exclusivity(unchecked) var distinctViews: UInt64 = 0
  @exclusivity(unchecked) var wasted: UInt64 = 0
  @exclusivity(unchecked) var versions: [UInt64] = []
  @exclusivity(unchecked) var step: UInt32 = 0

  /// Called by a view for each render.
  @inline(__always)
  func record(_ version: UInt64?, firstThisStep: Bool, wasted isWasted: Bool) {
    renders &+= 1
    if firstThisStep { distinctViews &+= 1 }
    if isWasted { wasted &+= 1 }
    if let version, versions.last != version { versions.append(version) }
  }
}
