import SimulatorFlow
import SimulatorReports
import WeftSimulation

/// Every attached view, by group name: groups that take WeftCore's callbacks
/// (`views N observe PATH`) and groups that read through the Observation bridge
/// (`views N observe PATH via observation`). Group names are unique across both.
///
/// # One headless-view system
/// Every view a flow attaches is a WeftContexts `HeadlessView` — the same protocol, window
/// and render count an app's own views use — attached to a `ContextWindow` named after its
/// group. A counting view is the smallest such view (no context, no subviews, no name: a
/// 32-byte `ViewAttachment` and no side allocation), sized for fan-out at scale (up to
/// 1,000,000 per group); what the simulator adds is the instrument: each group's tally of
/// renders, distinct views, wasted renders and their commit versions.
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
