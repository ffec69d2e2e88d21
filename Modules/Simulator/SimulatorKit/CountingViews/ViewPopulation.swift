import SimulatorFlow
import SimulatorReports
import WeftSimulation

/// Every attached view, by group name: groups that take WeftCore's callbacks
/// (`views N observe PATH`) and groups that read through the Observation bridge
/// (`views N observe PATH via observation`), both `ViewGroup`s in one list. Group names are
/// unique across both.
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
  /// The groups, in the order they were made.
  private(set) var all: [any ViewGroup] = []
  private var step: UInt32 = 0

  /// The groups that take WeftCore's callbacks (typed views of `all`, which tests read).
  var groups: [CountingViewGroup] { all.compactMap { $0 as? CountingViewGroup } }
  /// The groups that read through the Observation bridge.
  var observationGroups: [ObservationViewGroup] {
    all.compactMap { $0 as? ObservationViewGroup }
  }

  var attachedCount: Int { all.reduce(0) { $0 + $1.count } }

  /// Attaches `count` views observing `observable` to the group `name` (made if needed),
  /// delivered as `delivery` says.
  func attach(
    _ count: Int, to observable: ObservablePath, as name: String,
    via delivery: ViewDelivery = .callbacks
  ) throws(SimulationError) {
    let group: any ViewGroup
    if let existing = all.first(where: { $0.name == name }) {
      guard existing.path == observable.name, existing.delivery == delivery else {
        throw SimulationError(
          "view group '\(name)' observes '\(existing.path)'"
            + (existing.delivery == .observation ? " via observation" : "")
            + ", not '\(observable.name)'"
            + (delivery == .observation ? " via observation" : "")
            + "; name the new group differently with `as NAME`")
      }
      group = existing
    } else {
      switch delivery {
      case .callbacks: group = CountingViewGroup(name: name, observable: observable)
      case .observation: group = try ObservationViewGroup(name: name, observable: observable)
      }
      group.beginStep(step)
      all.append(group)
    }
    group.attach(count, to: observable)
  }

  /// Detaches `count` views (all if `nil`) from the group `name`.
  func detach(_ name: String, count: Int?) throws(SimulationError) {
    guard let index = all.firstIndex(where: { $0.name == name }) else {
      let known = all.map(\.name).joined(separator: ", ")
      throw SimulationError(
        "no view group named '\(name)'" + (known.isEmpty ? "" : " (groups: \(known))"))
    }
    all[index].detach(count)
    if all[index].count == 0 { all.remove(at: index) }
  }

  /// Moves every group to the observable `lookup` gives for its path (after a relaunch);
  /// detaches the groups whose path has none, or that cannot observe it, and returns them
  /// (name, path, views).
  ///
  /// - Complexity: O(n), n = attached views.
  func follow(
    _ lookup: (String) -> ObservablePath?
  ) -> [(name: String, path: String, count: Int)] {
    var detached: [(name: String, path: String, count: Int)] = []
    for group in all {
      if let observable = lookup(group.path), group.resubscribe(to: observable) { continue }
      detached.append((group.name, group.path, group.count))
      group.detach(nil)
    }
    all.removeAll { $0.count == 0 }
    return detached
  }

  func detachAll() {
    for group in all { group.detach(nil) }
    all.removeAll()
  }

  func beginStep() {
    step &+= 1
    for group in all { group.beginStep(step) }
  }

  /// Renders the views that read through Observation and were invalidated since the last
  /// call: the end of a step's settle is their frame.
  ///
  /// - Complexity: O(i), i = invalidated views.
  func renderInvalidated() {
    for group in all { group.renderInvalidated() }
  }

  /// Renders, distinct views rendered and wasted renders in the current step.
  var stepTotals: (renders: UInt64, distinct: UInt64, wasted: UInt64) {
    all.reduce((UInt64(0), UInt64(0), UInt64(0))) {
      ($0.0 + $1.renders, $0.1 + $1.distinctViews, $0.2 + $1.wasted)
    }
  }

  var causes: [RenderCause] {
    all.compactMap(\.cause).sorted {
      $0.views != $1.views ? $0.views > $1.views : $0.selector < $1.selector
    }
  }
}
