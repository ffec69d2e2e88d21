import WeftCore
import WeftObservation
import WeftSimulation

/// A path read through WeftObservation's bridge: one `ObservedState` model of the path's cell,
/// read by the path's selector id, so reading it inside `withObservationTracking` registers
/// interest in that one value — what a SwiftUI view model does for a screen.
///
/// - Note: Isolation: `@MainActor`.
@MainActor
final class ObservedPathModel {
  private let readValue: @MainActor () -> ObservedValue
  private let stop: @MainActor () -> Void

  init<State: Sendable>(
    _ cell: StateCell<State>, selectorID: String,
    project: @escaping @Sendable (State) -> ObservedValue
  ) {
    let model = ObservedState(cell)  // held by the two closures
    readValue = { model.value(id: selectorID, project) }
    stop = { model.stopObserving() }
  }

  /// The value, tracked: call it inside `withObservationTracking`.
  ///
  /// - Complexity: O(1); the first read subscribes the selector.
  func read() -> ObservedValue { readValue() }

  /// Cancels the model's subscription; trackers registered on it are never invalidated again.
  func stopObserving() { stop() }
}

/// Makes an `ObservedPathModel` of a path, on the MainActor.
struct ObservedPathModelMaker: ObservablePathOpener {
  func open<State: Sendable>(
    _ cell: StateCell<State>, selectorID: String,
    project: @escaping @Sendable (State) -> ObservedValue
  ) -> @MainActor @Sendable () -> ObservedPathModel {
    { ObservedPathModel(cell, selectorID: selectorID, project: project) }
  }
}
