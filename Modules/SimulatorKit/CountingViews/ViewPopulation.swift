import SimulatorFlow
import SimulatorReports
import WeftSimulation

/// Every attached view, by group name: groups that take WeftCore's callbacks
/// (`views N observe PATH`) and groups that read through the Observation bridge
/// (`views N observe PATH via observation`). Group names are unique across both.
///
/// # Counting views, not the app's headless views
/// The views a flow attaches are instruments for fan-out at scale (up to 1,000,000 per
/// group): N identical subscribers of one path that count renders, wasted renders and the
/// commits that caused them, at ≈ 120 bytes and one method call per delivery. WeftContexts'
/// `HeadlessView`/`ContextWindow` is the other headless-view system in Weft and serves a
/// different purpose: an app's own views, each linked 1:1 to a context (checked by the
/// component registry), attached in a tree whose attachment gates the context's
/// requestables and observers, re-rendering their own output. Building counting views on
/// it would give each of a million views a context, a registry link, an attachment record
/// and a place in a window's tree — several times the memory and a registry entry per view —
/// and would make SimulatorKit depend on WeftContexts for what it does not use. The two are
/// kept apart on purpose and named apart: `CountingViewGroup`/`CountingView` here, `HeadlessView`
/// there.
///
/// - Note: Isolation: MainActor.
@MainActor
final class ViewPopulation {
  private(set) var groups: [CountingViewGroup] = []
  private(set) var observationGroups: [ObservationViewGroup] = []
  private var step: UInt32 = 0

  var attachedCount: Int {
    groups.reduce(0) { $0 + $1.count } + observationGroups.reduce(0) { $0 + $1.count }
  }

  /// Attaches `count` views observing `observable` to the group `name` (made if needed),
  /// delivered as `delivery` says.
  func attach(
    _ count: Int, to observable: ObservablePath, as name: String,
    via delivery: ViewDelivery = .callbacks
  ) throws(SimulationError) {
    let callbackGroup = groups.first { $0.name == name }
    let observationGroup = observationGroups.first { $0.name == name }
    let existing: (path: String, delivery: ViewDelivery)? =
      callbackGroup.map { ($0.path, .callbacks) }
      ?? observationGroup.map { ($0.path, .observation) }
    if let existing, existing.path != observable.name || existing.delivery != delivery {
      throw SimulationError(
        "view group '\(name)' observes '\(existing.path)'"
          + (existing.delivery == .observation ? " via observation" : "")
          + ", not '\(observable.name)'"
          + (delivery == .observation ? " via observation" : "")
          + "; name the new group differently with `as NAME`")
    }
    switch delivery {
    case .callbacks:
      let group: CountingViewGroup
      if let callbackGroup {
        group = callbackGroup
      } else {
        group = CountingViewGroup(name: name, observable: observable)
        group.beginStep(step)
        groups.append(group)
      }
      group.attach(count, to: observable)
    case .observation:
      let group: ObservationViewGroup
      if let observationGroup {
        group = observationGroup
      } else {
        group = try ObservationViewGroup(name: name, observable: observable)
        group.beginStep(step)
        observationGroups.append(group)
      }
      group.attach(count)
    }
  }

  /// Detaches `count` views (all if `nil`) from the group `name`.
  func detach(_ name: String, count: Int?) throws(SimulationError) {
    if let index = groups.firstIndex(where: { $0.name == name }) {
      groups[index].detach(count)
      if groups[index].count == 0 { groups.remove(at: index) }
    } else if let index = observationGroups.firstIndex(where: { $0.name == name }) {
      observationGroups[index].detach(count)
      if observationGroups[index].count == 0 { observationGroups.remove(at: index) }
    } else {
      let known = (groups.map(\.name) + observationGroups.map(\.name)).joined(separator: ", ")
      throw SimulationError(
        "no view group named '\(name)'" + (known.isEmpty ? "" : " (groups: \(known))"))
    }
  }

  /// Moves every group to the observable `lookup` gives for its path (after a relaunch);
  /// detaches the groups whose path has none and returns them (name, path, views).
  ///
  /// - Complexity: O(n), n = attached views.
  func follow(
    _ lookup: (String) -> ObservablePath?
  ) -> [(name: String, path: String, count: Int)] {
    var detached: [(name: String, path: String, count: Int)] = []
    for group in groups {
      if let observable = lookup(group.path) {
        group.resubscribe(to: observable)
      } else {
        detached.append((group.name, group.path, group.count))
        group.detach(nil)
      }
    }
    groups.removeAll { $0.count == 0 }
    for group in observationGroups {
      if let observable = lookup(group.path), group.resubscribe(to: observable) { continue }
      detached.append((group.name, group.path, group.count))
      group.detach(nil)
    }
    observationGroups.removeAll { $0.count == 0 }
    return detached
  }

  func detachAll() {
    for group in groups { group.detach(nil) }
    groups.removeAll()
    for group in observationGroups { group.detach(nil) }
    observationGroups.removeAll()
  }

  func beginStep() {
    step &+= 1
    for group in groups { group.beginStep(step) }
    for group in observationGroups { group.beginStep(step) }
  }

  /// Renders the views that read through Observation and were invalidated since the last
  /// call: the end of a step's settle is their frame.
  ///
  /// - Complexity: O(i), i = invalidated views.
  func renderInvalidated() {
    for group in observationGroups { group.renderInvalidated() }
  }

  /// Renders, distinct views rendered and wasted renders in the current step.
  var stepTotals: (renders: UInt64, distinct: UInt64, wasted: UInt64) {
    let callbacks = groups.reduce((UInt64(0), UInt64(0), UInt64(0))) {
      ($0.0 + $1.renders, $0.1 + $1.distinctViews, $0.2 + $1.wasted)
    }
    return observationGroups.reduce(callbacks) {
      ($0.0 + $1.renders, $0.1 + $1.distinctViews, $0.2 + $1.wasted)
    }
  }

  var causes: [RenderCause] {
    (groups.compactMap(\.cause) + observationGroups.compactMap(\.cause)).sorted {
      $0.views != $1.views ? $0.views > $1.views : $0.selector < $1.selector
    }
  }
}
