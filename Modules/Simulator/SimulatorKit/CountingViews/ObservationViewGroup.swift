import Observation
import SimulatorFlow
import SimulatorReports
import WeftContexts
import WeftCore
import WeftSimulation

/// A group of headless views attached by `views N observe PATH via observation`: every view
/// is a WeftContexts `HeadlessView` attached to the group's `ContextWindow`, and reads PATH
/// through WeftObservation's bridge — one `ObservedState` model per group, as the
/// views of a screen share their view model — inside `withObservationTracking`, the way
/// SwiftUI tracks a body. An invalidated view re-renders once at the end of the step's
/// settle (its frame): it reads the value again, tracked, and counts a render.
///
/// Both delivery paths share WeftCore's coalesced MainActor job: the model is one more
/// subscriber of the path's selector. The bridge drops deliveries equal to what it holds, so
/// an equal-value commit invalidates no view; a value that changes and changes back within a
/// step re-renders its views with the value they showed: a wasted render.
///
/// # Performance
/// A view costs one small object and one Observation registration (re-made on every
/// render); an invalidation costs the registrar's `willSet` call and one array append; a
/// render costs one `withObservationTracking` call. One extra WeftCore subscription per
/// group records the commit versions that `--explain` names.
///
/// - Note: Isolation: MainActor.
@MainActor
final class ObservationViewGroup: ViewGroup {
  let name: String
  let path: String
  let selector: String
  var delivery: ViewDelivery { .observation }
  let window: ContextWindow
  private var model: ObservedPathModel
  private var versionRecorder: StateSubscription?
  private var views: [ObservationView] = []
  private var invalidated: [ObservationView] = []
  /// Commit versions delivered since the last render pass.
  private var pendingVersions: [UInt64] = []

  /// Counters for the current step; `beginStep` clears them.
  private(set) var renders: UInt64 = 0
  private(set) var distinctViews: UInt64 = 0
  private(set) var wasted: UInt64 = 0
  private var versions: [UInt64] = []
  private var step: UInt32 = 0

  var count: Int { views.count }

  /// Makes the group's model of `observable`. Fails when the app's path cannot be read
  /// through the bridge.
  init(name: String, observable: ObservablePath) throws(SimulationError) {
    self.name = name
    self.path = observable.name
    self.selector = observable.selectorDescription + " via observation"
    self.window = ContextWindow(name: name)
    model = try Self.model(of: observable)
    versionRecorder = Self.recordVersions(of: observable, into: self)
  }

  /// Attaches `count` views; each renders its current value, tracked (its attach render,
  /// which the step's counters do not count). `observable` is the group's path, which its
  /// model already reads.
  func attach(_ count: Int, to observable: ObservablePath) {
    views.reserveCapacity(views.count + count)
    window.reserveCapacity(views.count + count)
    for _ in 0..<count {
      let view = ObservationView(group: self)
      views.append(view)
      window.attach(view)
    }
  }

  /// Moves every view to `observable` (the same path in a relaunched app): a new model, every
  /// view tracked again, and a render without a commit version where the value differs.
  /// Returns `false`, changing nothing, when `observable` cannot be read through the bridge.
  ///
  /// - Complexity: O(n), n = views in the group.
  func resubscribe(to observable: ObservablePath) -> Bool {
    guard let next = observable.observedModelMaker?() else { return false }
    model.stopObserving()
    versionRecorder?.cancel()
    model = next
    versionRecorder = Self.recordVersions(of: observable, into: self)
    invalidated.removeAll()
    pendingVersions.removeAll()
    let current = model.read()
    for view in views {
      view.isInvalidated = false
      if current != view.value {
        view.renderNow()
      } else {
        _ = track(view)
      }
    }
    return true
  }

  /// Detaches the last `count` views (all if `nil`); returns how many were detached. A
  /// detached view's pending registration is ignored when it fires.
  @discardableResult
  func detach(_ count: Int?) -> Int {
    let removing = min(count ?? views.count, views.count)
    for view in views.suffix(removing) { window.detach(view) }
    views.removeLast(removing)
    invalidated.removeAll { !$0.isAttached }
    if views.isEmpty {
      model.stopObserving()
      versionRecorder?.cancel()
    }
    return removing
  }

  func beginStep(_ step: UInt32) {
    self.step = step
    renders = 0
    distinctViews = 0
    wasted = 0
    versions.removeAll(keepingCapacity: true)
  }

  /// Renders every invalidated view: it reads the value again, tracked, and counts a render
  /// caused by the commits delivered since the last pass.
  ///
  /// - Complexity: O(i), i = invalidated views.
  func renderInvalidated() {
    guard !invalidated.isEmpty else {
      pendingVersions.removeAll(keepingCapacity: true)
      return
    }
    let views = invalidated
    invalidated.removeAll(keepingCapacity: true)
    for version in pendingVersions where versions.last != version { versions.append(version) }
    pendingVersions.removeAll(keepingCapacity: true)
    for view in views where view.isAttached {
      view.isInvalidated = false
      view.renderNow()
    }
  }

  /// The step's render causes for `--explain`.
  var cause: RenderCause? {
    guard renders > 0 else { return nil }
    return RenderCause(
      selector: selector, commitVersions: Array(Set(versions)).sorted(), views: distinctViews,
      wastedRenders: wasted)
  }

  // MARK: Tracking

  /// Reads the value inside `withObservationTracking`; the registration invalidates `view`.
  func track(_ view: ObservationView) -> ObservedValue {
    let model = self.model
    return withObservationTracking {
      model.read()
    } onChange: { [weak self] in
      // Called inside the model's `withMutation`, which runs in WeftCore's MainActor job.
      MainActor.assumeIsolated { self?.invalidate(view) }
    }
  }

  private func invalidate(_ view: ObservationView) {
    guard view.isAttached, !view.isInvalidated else { return }
    view.isInvalidated = true
    invalidated.append(view)
  }

  /// Counts `view`'s render of `value` (the causing versions are recorded per pass, in
  /// `renderInvalidated`); `view` shows it.
  func count(_ view: ObservationView, rendering value: ObservedValue) {
    renders &+= 1
    if view.renderedInStep != step { distinctViews &+= 1 }
    view.renderedInStep = step
    if value == view.value { wasted &+= 1 }
  }

  private static func model(
    of observable: ObservablePath
  ) throws(SimulationError) -> ObservedPathModel {
    guard let makeModel = observable.observedModelMaker else {
      throw SimulationError(
        "'\(observable.name)' cannot be observed via observation: the app's plug-in made it "
          + "without a state cell; observe it with callbacks (drop `via observation`)")
    }
    return makeModel()
  }

  private static func recordVersions(
    of observable: ObservablePath, into group: ObservationViewGroup
  ) -> StateSubscription {
    observable.subscribe { [weak group] _, version in group?.pendingVersions.append(version) }
  }
}

/// One headless view that reads through Observation: the value it shows, the step it last
/// rendered in, and whether it waits for its render. Its `render()` reads the value through
/// its group's model, tracked; the attach render (its first) is not counted in the group's
/// step counters.
@MainActor
final class ObservationView: HeadlessView {
  var attachment = ViewAttachment()
  /// The group that owns the view (and keeps it while attached).
  unowned let group: ObservationViewGroup
  var value: ObservedValue = .none
  var renderedInStep: UInt32 = .max
  var isInvalidated = false

  init(group: ObservationViewGroup) { self.group = group }

  func render() -> ObservedValue { group.track(self) }

  func didRender(_ rendering: ObservedValue) {
    if renderCount > 1 { group.count(self, rendering: rendering) }
    value = rendering
  }
}
