import WeftDependencies
import WeftFeedback

/// TCA's Effects-Cancellation case study in Weft: a stepper picks a number, a button fetches
/// a fact about it, and a cancel button — or moving the stepper — cancels the request in
/// flight. The request runs by id: no field of the state exists only to cancel it.
///
/// - Note: Isolation: values and pure functions; the system runs them on its host.
/// - Complexity: O(1) per event.
public enum EffectsCancellation {
  /// What the screen shows.
  public struct State: Equatable, Sendable {
    /// The stepper's number.
    public var count = 0
    /// The fact last fetched, if any.
    public var currentFact: String?
    /// Whether a fact is being fetched (the screen shows a progress view and Cancel).
    public var isFactRequestInFlight = false
    /// Makes the screen's first state.
    public init() {}
  }

  /// What happens on the screen.
  public enum Event: Equatable, Sendable {
    case cancelButtonTapped
    case stepperChanged(Int)
    case factButtonTapped
    case factResponse(Result<String, APIError>)
  }

  enum EffectID { case factRequest }

  /// Applies one event.
  ///
  /// - Complexity: O(1).
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .cancelButtonTapped:
      state.isFactRequestInFlight = false
    case .stepperChanged(let value):
      state.count = value
      state.currentFact = nil
      state.isFactRequestInFlight = false
    case .factButtonTapped:
      state.currentFact = nil
      state.isFactRequestInFlight = true
    case .factResponse(.success(let fact)):
      state.isFactRequestInFlight = false
      state.currentFact = fact
    case .factResponse(.failure):
      state.isFactRequestInFlight = false
    }
  }

  /// The fact request (the `factClient` dependency), cancelled by the cancel button and the
  /// stepper.
  ///
  /// - Complexity: O(1) per event; one `fetch` per tap.
  public static let feedbacks: [Feedback<State, Event>] = [
    .cancellable { event, state in
      switch event {
      case .cancelButtonTapped, .stepperChanged: .cancel(id: EffectID.factRequest)
      case .factButtonTapped:
        .run(id: EffectID.factRequest) { [count = state.count] in
          @Dependency(\.factClient) var factClient
          return .factResponse(await APIError.result { try await factClient.fetch(count) })
        }
      case .factResponse: nil
      }
    }.named("fact")
  ]
}
