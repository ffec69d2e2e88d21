import SimulatorFlow
import SimulatorReports
import WeftContexts
import WeftCore
import WeftSimulation

/// A group of counting views attached by one `views N observe PATH as NAME` step: each view
/// is a WeftContexts `HeadlessView` attached to the group's `ContextWindow`, subscribes to
/// the path, and renders the value it is given.
///
/// A counting view is the simplest headless view: no context, no subviews, no name, and a
/// rendering that is a value token. It renders the way every `HeadlessView` does
/// (`renderNow()`: `render()`, the view's render count, `didRender(_:)`), and it is
/// attached, detached and counted by a window like any other; what the group adds is the
/// accounting the report needs — renders, distinct views rendered, wasted renders (a value
/// equal to the one the view already showed), and the commit versions that caused them — in
/// its `ViewGroupTally`, so a render costs a few stores.
///
/// A view does not hold its value: it holds the value's token in the tally's table of the
/// distinct values the group's views show (equal values, one token), so "wasted" is one
/// integer comparison, and a value is converted and looked up once per commit, not once per
/// view (the tally caches the token of the last commit version it saw).
///
/// # Performance
/// A view is one object that is also its WeftCore registration: 56 bytes of its own plus a
/// 32-byte `ViewAttachment` (a 96-byte heap block), its 24-byte subscription token and its
/// slots in the group's arrays and the window's roots (`weft-sim sweep` measures the total).
/// Every view of a group observes the same path, so they share one selector and one
/// comparison per commit. A path of a Weft app (`subscribeObserver`) calls each view
/// directly from WeftCore's delivery loop: one method call per delivery, one heap block
/// read, no allocation.
///
/// - Note: Isolation: MainActor.
@MainActor
final class CountingViewGroup: ViewGroup {
  let name: String
  let path: String
  let selector: String
  var delivery: ViewDelivery { .callbacks }
  let window: ContextWindow
  private(set) var views: [CountingView] = []
  private var subscriptions: [StateSubscription] = []

  /// Counters for the current step and the table of shown values, shared with the group's
  /// views; `beginStep` clears the counters.
  let tally: ViewGroupTally

  var renders: UInt64 { tally.renders }
  var distinctViews: UInt64 { tally.distinctViews }
  var wasted: UInt64 { tally.wasted }
  var versions: [UInt64] { tally.versions }
  var step: UInt32 { tally.step }

  /// Makes an empty group. `compactionThreshold` is the size of the value table above which
  /// `beginStep` drops the values no view shows any more (tests make it small).
  init(
    name: String, observable: ObservablePath,
    compactionThreshold: Int = ViewGroupTally.defaultCompactionThreshold
  ) {
    self.name = name
    self.path = observable.name
    self.selector = observable.selectorDescription
    self.window = ContextWindow(name: name)
    self.tally = ViewGroupTally(compactionThreshold: compactionThreshold)
  }

  var count: Int { views.count }

  /// Attaches `count` views to `observable`; each starts showing its current value (its
  /// attach render, which the step's counters do not count).
  ///
  /// - Complexity: O(count) subscriptions and one read of the value.
  func attach(_ count: Int, to observable: ObservablePath) {
    guard count > 0 else { return }
    views.reserveCapacity(views.count + count)
    subscriptions.reserveCapacity(subscriptions.count + count)
    window.reserveCapacity(views.count + count)
    let first = views.count
    // The views first, then their subscriptions: the views' blocks lie next to each other
    // (not interleaved with the subscription tokens), so a delivery walk over a million of
    // them reads fewer cache lines.
    for _ in 0..<count { views.append(CountingView(tally: tally)) }
    for view in views[first...] { subscriptions.append(Self.subscribe(view, to: observable)) }
    // Read after subscribing: a commit in between is delivered, never lost. One read serves
    // every new view (each shows the value as of after its own subscription).
    let shown = tally.token(of: observable.read())
    for view in views[first...] {
      view.shown = shown
      window.attach(view)
    }
  }

  /// Moves every view to `observable` (the same path in a relaunched app): cancels the old
  /// subscriptions, subscribes each view again, and renders the value it now reads in the
  /// views whose shown value differs (a render without a commit version).
  ///
  /// - Complexity: O(n), n = views in the group.
  @discardableResult
  func resubscribe(to observable: ObservablePath) -> Bool {
    for subscription in subscriptions { subscription.cancel() }
    subscriptions.removeAll(keepingCapacity: true)
    // The relaunched app's cell numbers its commits afresh: a cached version means nothing.
    tally.forgetVersion()
    // An observer attaches once: each view moves to a new one that shows what it showed.
    views = views.map { view in
      let next = CountingView(continuing: view)
      window.detach(view)
      window.attach(next)
      return next
    }
    for view in views { subscriptions.append(Self.subscribe(view, to: observable)) }
    let value = tally.token(of: observable.read())
    for view in views where view.shown != value { view.show(value) }
    return true
  }

  /// Detaches the last `count` views (all if `nil`); returns how many were detached.
  @discardableResult
  func detach(_ count: Int?) -> Int {
    let removing = min(count ?? views.count, views.count)
    for subscription in subscriptions.suffix(removing) { subscription.cancel() }
    subscriptions.removeLast(removing)
    for view in views.suffix(removing) { window.detach(view) }
    views.removeLast(removing)
    return removing
  }

  /// Starts step `step`: clears the counters, and drops the values no view shows when the
  /// value table has grown past its threshold.
  ///
  /// - Complexity: O(1), or O(n) when the table is compacted (amortized O(1) per delivery:
  ///   the table grows by at most one value per commit delivered to the group's views).
  func beginStep(_ step: UInt32) {
    tally.beginStep(step)
    if tally.needsCompaction { tally.compact(views) }
  }

  /// Nothing: a counting view renders on delivery.
  func renderInvalidated() {}

  /// The step's render causes for `--explain`.
  var cause: RenderCause? {
    guard renders > 0 else { return nil }
    return RenderCause(
      selector: selector, commitVersions: Array(Set(versions)).sorted(), views: distinctViews,
      wastedRenders: wasted)
  }

  /// Subscribes `view` to `observable`: as WeftCore's subscriber itself when the path allows
  /// it, else through the observable's closure.
  private static func subscribe(
    _ view: CountingView, to observable: ObservablePath
  ) -> StateSubscription {
    if observable.subscribesObserversDirectly { return observable.subscribe(view) }
    return observable.subscribe { [view] value, version in view.receive(value, version: version) }
  }
}

/// One counting view: a `HeadlessView` whose rendering is the token of the value it shows,
/// and the step it last rendered in.
///
/// It is a `PathObserver` (WeftCore's `MainActorObserver`), so it is its own WeftCore
/// registration: a Weft app's path delivers to it with one method call, and a delivery
/// reads one heap block (see `ObservablePath.subscribe(_:)`). The class is not
/// MainActor-isolated because its superclass is not; its state and methods are, and its
/// `HeadlessView` conformance is isolated to the MainActor.
///
/// A delivery renders it as any headless view renders: `renderNow()` calls `render()`
/// (the delivered token), counts the render in the view's attachment, and hands the token to
/// `didRender(_:)`, which shows it and counts it in the group's tally. The render that
/// attaching makes keeps the token the group set (`shown`) and is not counted in the tally.
// `@unchecked Sendable` is restated, not added: Swift requires a subclass to restate its
// superclass's (`MainActorObserver`'s, whose comment proves the registration's fields safe),
// and warns without it. Why the fields this class adds keep it safe, one by one:
// - `tally`: a `let` (never written after init) of a `@MainActor` class, which is `Sendable`;
// - `shown`, `renderedInStep`, `attachment`: `@MainActor` stored properties, so the compiler
//   rejects any access off the MainActor (their `@exclusivity(unchecked)` only drops the
//   run-time overlap check, argued above each);
// - the `HeadlessView` conformance is isolated to the MainActor (`@MainActor HeadlessView`),
//   so `render()`, `didRender(_:)` and `renderNow()` are usable only there.
// So another thread can reach only what WeftCore's registration exposes, as for any
// `MainActorObserver`.
final class CountingView: PathObserver, @MainActor HeadlessView, @unchecked Sendable {
  /// The group's counters and values. Held strongly (the tally holds no view, so there is no
  /// cycle): reading a strong `let` costs no reference-count traffic, where an `unowned`
  /// reference to the group cost an atomic retain and release on every render.
  let tally: ViewGroupTally
  // Exclusivity is not checked at run time for the per-render state (a TLS access-set
  // insert per access was 6% of a 100,000-view sweep): every access is MainActor-isolated
  // and synchronous within `renderNow`, so no two accesses can overlap.
  /// The token of the value shown (see `ViewGroupTally.token(of:)`).
  @MainActor @exclusivity(unchecked) var shown: UInt32 = 0
  @MainActor @exclusivity(unchecked) private var renderedInStep: UInt32 = .max
  /// Its place in the group's window and its render count (`HeadlessView`'s bookkeeping),
  /// written once per render like the state above.
  @MainActor @exclusivity(unchecked) var attachment = ViewAttachment()

  init(tally: ViewGroupTally) {
    self.tally = tally
    super.init()
  }

  /// A new view in `view`'s group, showing what `view` shows, for a relaunched app's path
  /// (an observer attaches once).
  @MainActor init(continuing view: CountingView) {
    self.tally = view.tally
    super.init()
    shown = view.shown
    renderedInStep = view.renderedInStep
  }

  /// The value the view shows.
  @MainActor var value: ObservedValue { tally.value(of: shown) }

  /// A delivery from WeftCore: the value and the commit version that caused it.
  @MainActor override func receive(_ change: Change<ObservedValue>) {
    show(tally.token(version: change.version) { change.value })
  }

  /// A delivery through an observable's closure (an app that is not built on
  /// `ObservablePath`).
  @MainActor func receive(_ value: ObservedValue, version: UInt64) {
    show(tally.token(version: version) { value })
  }

  /// Renders the value of `token`, counted in the tally. The commit version that caused it,
  /// if any, was recorded when the tally first met it.
  @MainActor @inline(__always)
  func show(_ token: UInt32) {
    tally.rendering = token
    renderNow()
  }

  /// The token to show: the one being delivered to the group's views (kept by the tally, so
  /// that a view stores no more than the token it shows).
  @MainActor @inline(__always)
  func render() -> UInt32 { tally.rendering }

  /// Shows `token` and counts the render in the tally, except the attach render (a view's
  /// first: views render only when attached or delivered to, and attach before any
  /// delivery), which keeps the token the group set in `shown`.
  @MainActor @inline(__always)
  func didRender(_ token: UInt32) {
    guard renderCount > 1 else { return }
    let tally = self.tally
    let step = tally.step
    let first = renderedInStep != step
    renderedInStep = step
    let isWasted = shown == token
    shown = token
    tally.renders &+= 1
    tally.distinctViews &+= first ? 1 : 0
    tally.wasted &+= isWasted ? 1 : 0
  }
}

/// One view group's shared render state: the current step's counters (renders, distinct
/// views rendered, wasted renders, the commit versions that caused them), and the table of
/// the distinct values its views show, each with a token.
///
/// A commit's value is delivered to every view of the group with one version, so the token
/// of the last version met is cached: the first view a commit reaches converts and looks the
/// value up, the others compare one integer.
///
/// - Note: Isolation: MainActor.
@MainActor
final class ViewGroupTally {
  /// The table size above which `beginStep` compacts it by default.
  nonisolated static let defaultCompactionThreshold = 4_096

  // Not checked for exclusivity at run time, like `CountingView`'s state: MainActor-
  // isolated, and every access is synchronous, so none can overlap another.
  @exclusivity(unchecked) var renders: UInt64 = 0
  @exclusivity(unchecked) var distinctViews: UInt64 = 0
  @exclusivity(unchecked) var wasted: UInt64 = 0
  @exclusivity(unchecked) private(set) var versions: [UInt64] = []
  @exclusivity(unchecked) private(set) var step: UInt32 = 0
  /// The token being rendered: set by a view before its `renderNow()`, read by its `render()`.
  @exclusivity(unchecked) var rendering: UInt32 = 0
  /// The last commit version met in this step and its value's token, when `cached`.
  @exclusivity(unchecked) private var cachedVersion: UInt64 = 0
  @exclusivity(unchecked) private var cachedToken: UInt32 = 0
  @exclusivity(unchecked) private var cached = false

  /// The values shown, by token, and the token of each (equal values share one).
  private var values: [ObservedValue] = []
  private var tokens: [ObservedValue: UInt32] = [:]
  private let minimumCompactionThreshold: Int
  private var compactionThreshold: Int

  init(compactionThreshold: Int) {
    self.minimumCompactionThreshold = max(1, compactionThreshold)
    self.compactionThreshold = max(1, compactionThreshold)
  }

  /// The token of `value`: equal values (by `==`) have equal tokens.
  ///
  /// - Complexity: O(1) amortized (one hash lookup).
  func token(of value: ObservedValue) -> UInt32 {
    if let token = tokens[value] { return token }
    let token = UInt32(values.count)
    values.append(value)
    tokens[value] = token
    return token
  }

  /// The value of `token`.
  func value(of token: UInt32) -> ObservedValue { values[Int(token)] }

  /// The token of the value delivered with commit `version`; records `version` as a cause
  /// of the step's renders the first time it is met.
  ///
  /// - Complexity: O(1): an integer comparison, or once per version a conversion and lookup.
  @inline(__always)
  func token(version: UInt64, _ value: () -> ObservedValue) -> UInt32 {
    if cached && cachedVersion == version { return cachedToken }
    return meet(version: version, value: value())
  }

  @inline(never)
  private func meet(version: UInt64, value: ObservedValue) -> UInt32 {
    let token = token(of: value)
    cachedVersion = version
    cachedToken = token
    cached = true
    if versions.last != version { versions.append(version) }
    return token
  }

  /// Forgets the cached version (a relaunched app's versions start again).
  func forgetVersion() { cached = false }

  /// Clears the counters for step `step`.
  func beginStep(_ step: UInt32) {
    self.step = step
    renders = 0
    distinctViews = 0
    wasted = 0
    versions.removeAll(keepingCapacity: true)
    // The step's first delivery must record its version again.
    cached = false
  }

  /// Whether the value table has grown past its threshold.
  var needsCompaction: Bool { values.count > compactionThreshold }

  /// Keeps only the values `views` show, renumbered; the threshold becomes twice what is kept
  /// (at least the initial one), so compaction stays amortized O(1) per delivery.
  ///
  /// - Complexity: O(n + t), n = views, t = tokens.
  func compact(_ views: [CountingView]) {
    var renumbered = [UInt32](repeating: .max, count: values.count)
    var kept: [ObservedValue] = []
    var keptTokens: [ObservedValue: UInt32] = [:]
    for view in views {
      let old = Int(view.shown)
      if renumbered[old] == .max {
        renumbered[old] = UInt32(kept.count)
        // A value unequal to itself (NaN) was never found by lookup either: keep it apart.
        if keptTokens[values[old]] == nil { keptTokens[values[old]] = UInt32(kept.count) }
        kept.append(values[old])
      }
      view.shown = renumbered[old]
    }
    values = kept
    tokens = keptTokens
    cached = false
    compactionThreshold = max(minimumCompactionThreshold, 2 * kept.count)
  }
}
