import CaseStudies
import Testing
import WeftTesting

/// TCA's `EffectsCancellationTests`, ported test for test.
@MainActor
struct EffectsCancellationTests {
  @Test func successfulRequest() async {
    let store = TestStore(
      initial: EffectsCancellation.State(), reduce: EffectsCancellation.reduce,
      feedbacks: EffectsCancellation.feedbacks,
      dependencies: { $0.factClient.fetch = { "\($0) is a good number Brent" } })

    store.send(.stepperChanged(1), effects: .nothing) { $0.count = 1 }
    store.send(.stepperChanged(0), effects: .nothing) { $0.count = 0 }
    store.send(.factButtonTapped, effects: .started("fact")) { $0.isFactRequestInFlight = true }
    await store.receive(.factResponse(.success("0 is a good number Brent"))) {
      $0.currentFact = "0 is a good number Brent"
      $0.isFactRequestInFlight = false
    }
    await store.finish()
  }

  @Test func failedRequest() async {
    let store = TestStore(
      initial: EffectsCancellation.State(), reduce: EffectsCancellation.reduce,
      feedbacks: EffectsCancellation.feedbacks,
      dependencies: { $0.factClient.fetch = { _ in throw SomethingWentWrong() } })

    store.send(.factButtonTapped, effects: .started("fact")) { $0.isFactRequestInFlight = true }
    await store.receive(.factResponse(.failure(APIError("SomethingWentWrong()")))) {
      $0.isFactRequestInFlight = false
    }
    await store.finish()
  }

  // Replace the cancel in the feedback's `.cancelButtonTapped` case with `nil` and this test
  // fails twice: the send did not cancel "fact", and `finish` finds it still running.
  @Test func cancelButtonCancelsRequest() async {
    let store = TestStore(
      initial: EffectsCancellation.State(), reduce: EffectsCancellation.reduce,
      feedbacks: EffectsCancellation.feedbacks,
      dependencies: { $0.factClient.fetch = { _ in try await suspendUntilCancelled() } })

    store.send(.factButtonTapped, effects: .started("fact")) { $0.isFactRequestInFlight = true }
    store.send(.cancelButtonTapped, effects: .cancelled("fact")) {
      $0.isFactRequestInFlight = false
    }
    await store.finish()
  }

  @Test func plusMinusButtonsCancelsRequest() async {
    let store = TestStore(
      initial: EffectsCancellation.State(), reduce: EffectsCancellation.reduce,
      feedbacks: EffectsCancellation.feedbacks,
      dependencies: { $0.factClient.fetch = { _ in try await suspendUntilCancelled() } })

    store.send(.factButtonTapped, effects: .started("fact")) { $0.isFactRequestInFlight = true }
    store.send(.stepperChanged(1), effects: .cancelled("fact")) {
      $0.count = 1
      $0.isFactRequestInFlight = false
    }
    await store.finish()
  }
}
