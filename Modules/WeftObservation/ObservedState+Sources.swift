import WeftContexts
import WeftCore
import WeftFeedback

/// Models of the state of each kind of Weft owner. All of them read the owner's cell;
/// writes go through the owner (see `binding(_:set:)` and `ObservedContext`).
extension ObservedState {
  /// Makes a model of a MainActor `FeedbackStore`'s state.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public convenience init<Action, Event, Route>(_ store: FeedbackStore<State, Action, Event, Route>)
  {
    self.init(store.cell)
  }

  /// Makes a model of a service's state (a `FeedbackService`, or any `Service`).
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public convenience init<S: Service>(_ service: S) where S.State == State {
    self.init(service.cell)
  }

  /// Makes a model of a `ClientContext`'s primary client. It reads the values WeftCore
  /// delivers on the MainActor — the same job that keeps `context.state` current.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the model.
  public convenience init<C: Client>(_ context: ClientContext<C>) where C.State == State {
    self.init(context.client.cell)
  }
}
