import CaseStudies
import Foundation
import WeftCore
import WeftDependencies
import WeftFeedback

/// The four case studies as one headless app: a feedback system per screen on the MainActor,
/// made in the simulated configuration — an override set of the dependencies: the live API
/// clients over `api`, the clock the runtime makes virtual, counting ids.
///
/// - Note: Isolation: MainActor.
/// - Complexity: each event is reduced on the MainActor before `send` returns.
@MainActor
final class CaseStudiesApp {
  let api: SimulatedAPI
  let timers: FeedbackSystem<Timers.State, Timers.Event>
  let cancellation: FeedbackSystem<EffectsCancellation.State, EffectsCancellation.Event>
  let search: FeedbackSystem<Search.State, Search.Event>
  let todos: FeedbackSystem<Todos.State, Todos.Event>

  init(clock: ContinuousClock = ContinuousClock(), latency: Duration) {
    let api = SimulatedAPI(clock: clock, latency: latency)
    self.api = api
    let simulated: (inout DependencyValues) -> Void = { values in
      values.continuousClock = clock
      values.uuid = .incrementing
      values.factClient = .live(http: api.client(host: "numbersapi.com", clock: clock))
      values.weatherClient = .live(
        geocoding: api.client(host: "geocoding-api.open-meteo.com", clock: clock),
        forecasts: api.client(host: "api.open-meteo.com", clock: clock))
    }
    timers = FeedbackSystem(
      initial: Timers.State(), name: "Timers", reduce: Timers.reduce,
      feedbacks: Timers.feedbacks, on: MainActor.shared, dependencies: simulated)
    cancellation = FeedbackSystem(
      initial: EffectsCancellation.State(), name: "EffectsCancellation",
      reduce: EffectsCancellation.reduce, feedbacks: EffectsCancellation.feedbacks,
      on: MainActor.shared, dependencies: simulated)
    search = FeedbackSystem(
      initial: Search.State(), name: "Search", reduce: Search.reduce,
      feedbacks: Search.feedbacks, on: MainActor.shared, dependencies: simulated)
    todos = FeedbackSystem(
      initial: Todos.State(), name: "Todos", reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      on: MainActor.shared, dependencies: simulated)
  }

  /// Tears every screen down, cancelling its effects.
  func shutDown() {
    timers.cancel()
    cancellation.cancel()
    search.cancel()
    todos.cancel()
  }
}
