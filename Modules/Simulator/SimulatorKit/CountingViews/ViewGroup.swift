import SimulatorFlow
import SimulatorReports
import WeftContexts
import WeftSimulation

/// A group of headless views a flow attached under one name (`views N observe PATH as
/// NAME`): its views, all `HeadlessView`s in its `window`, observe one path, delivered one
/// way; the group counts the step's renders for the report.
///
/// Two kinds: `CountingViewGroup` (WeftCore's MainActor callbacks) and
/// `ObservationViewGroup` (the Observation bridge).
///
/// - Note: Isolation: MainActor.
@MainActor
protocol ViewGroup: AnyObject {
  /// The group's name (unique in a flow).
  var name: String { get }
  /// The observed path's name.
  var path: String { get }
  /// How the views get changes.
  var delivery: ViewDelivery { get }
  /// The window the views are attached to, named after the group.
  var window: ContextWindow { get }
  /// Views attached.
  var count: Int { get }
  /// Renders, distinct views rendered and wasted renders in the current step.
  var renders: UInt64 { get }
  var distinctViews: UInt64 { get }
  var wasted: UInt64 { get }
  /// The step's render causes for `--explain`, if the group rendered.
  var cause: RenderCause? { get }

  /// Attaches `count` views observing `observable` (the group's path).
  ///
  /// - Complexity: O(count).
  func attach(_ count: Int, to observable: ObservablePath)

  /// Detaches the last `count` views (all if `nil`); returns how many were detached.
  ///
  /// - Complexity: O(detached views).
  @discardableResult func detach(_ count: Int?) -> Int

  /// Moves every view to `observable` (the same path in a relaunched app); `false`, changing
  /// nothing, when the group cannot observe it.
  ///
  /// - Complexity: O(n), n = views in the group.
  func resubscribe(to observable: ObservablePath) -> Bool

  /// Starts step `step`: clears the step's counters.
  func beginStep(_ step: UInt32)

  /// Renders what the step invalidated, at the end of the step's settle (the views' frame);
  /// views rendered on delivery have nothing to do.
  ///
  /// - Complexity: O(i), i = invalidated views.
  func renderInvalidated()
}
