import CaseStudies
import WeftCore
import WeftFeedback

/// The four case studies as one headless app: a feedback system per screen on the MainActor,
/// with the live API clients over `api` and the clock the runtime makes virtual.
///
/// - Note: Isolation: MainActor.
/// - Complexity: each event is reduced on the MainActor before `send` returns.
@MainActor
final class CaseStudiesApp {
  let api: SimulatedAPI
  let timers: FeedbackSystem<Timers.State, Timers.Event>
  let cancellation: FeedbackSystem<EffectsCancellation.State, EffectsCancellation.Event>
  let search: FeedbackSystem<Search.State, Search.Event>

  init(clock: ContinuousClock = ContinuousClock(), latency: Duration) {
    let api = SimulatedAPI(clock: clock, latency: latency)
    self.api = api
    timers = FeedbackSystem(
      initial: Timers.State(), name: "Timers", reduce: Timers.reduce,
      feedbacks: Timers.feedbacks(clock: clock), on: MainActor.shared)
    cancellation = FeedbackSystem(
      initial: EffectsCancellation.State(), name: "EffectsCancellation",
      reduce: EffectsCancellation.reduce,
      feedbacks: EffectsCancellation.feedbacks(
        facts: .live(http: api.client(host: "numbersapi.com", clock: clock))),
      on: MainActor.shared)
    let weather = WeatherClient.live(
      geocoding: api.client(host: "geocoding-api.open-meteo.com", clock: clock),
      forecasts: api.client(host: "api.open-meteo.com", clock: clock))
    search = FeedbackSystem(
      initial: Search.State(), name: "Search", reduce: Search.reduce,
      feedbacks: Search.feedbacks(weather: weather, clock: clock), on: MainActor.shared)
  }

  /// Tears every screen down, cancelling its effects.
  func shutDown() {
    timers.cancel()
    cancellation.cancel()
    search.cancel()
  }
}
