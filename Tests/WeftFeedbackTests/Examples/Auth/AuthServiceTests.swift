import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// The authentication service's loop, tested exhaustively on the MainActor with a test
/// clock: every state change, every fed-back event, every effect started and cancelled.
@Suite("Auth service", .timeLimit(.minutes(5)))
@MainActor
struct AuthServiceTests {
  let clock = TestClock()
  let logouts = AsyncStream.makeStream(of: Void.self)
  let ada = Auth.Credentials(username: "ada", password: "pw")

  func store(
    _ backend: StubAuthBackend, initial: Auth.State = .idle
  ) -> TestStore<Auth.State, Auth.Event> {
    TestStore(
      initial: initial, reduce: Auth.reduce,
      feedbacks: Auth.feedbacks(api: backend.api, clock: clock, logouts: logouts.stream))
  }

  /// Ends the logout notifications so the `logouts` effect finishes, then checks the end.
  func finish(_ store: TestStore<Auth.State, Auth.Event>) async {
    logouts.continuation.finish()
    await store.finish()
  }

  @Test func loginSucceeds() async {
    let backend = StubAuthBackend(clock: clock)
    let store = store(backend)
    #expect(store.effectsAtStart == .started("logouts"))
    store.send(.action(.login(username: "ada", password: "pw")), effects: .started("authenticate"))
    {
      $0 = .authenticating(ada)
    }
    await clock.waitForSleepers(count: 2)  // the call's latency and the timeout
    await clock.advance(by: .seconds(1))
    await store.receive(.authenticationResult(.success("token-ada"))) {
      $0 = .authenticated(token: "token-ada")
    }
    #expect(backend.calls.values == [ada])
    await finish(store)
  }

  @Test func aFailedLoginCanBeRetried() async {
    let backend = StubAuthBackend(clock: clock) { credentials, call in
      call == 1 ? .failure(.invalidCredentials) : .success("token-\(credentials.username)")
    }
    let store = store(backend)
    store.send(.action(.login(username: "ada", password: "pw"))) { $0 = .authenticating(ada) }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.authenticationResult(.failure(.invalidCredentials))) {
      $0 = .failed(.invalidCredentials, credentials: ada)
    }
    store.send(.action(.retryLogin), effects: .started("authenticate")) {
      $0 = .authenticating(ada)
    }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.authenticationResult(.success("token-ada"))) {
      $0 = .authenticated(token: "token-ada")
    }
    #expect(backend.calls.count == 2)
    await finish(store)
  }

  @Test func retryOutsideAFailureDoesNothing() async {
    let store = store(StubAuthBackend(clock: clock))
    store.send(.action(.retryLogin), effects: .nothing)
    await finish(store)
  }

  @Test func logoutWhileAuthenticatingCancelsTheRequest() async {
    let backend = StubAuthBackend(clock: clock)
    let store = store(backend)
    store.send(.action(.login(username: "ada", password: "pw"))) { $0 = .authenticating(ada) }
    await clock.waitForSleepers(count: 2)
    store.send(.action(.logout), effects: .cancelled("authenticate")) { $0 = .idle }
    await store.system.waitForEffects(atMost: 1)  // only `logouts` is left
    #expect(backend.cancelled.value == 1)
    await clock.advance(by: .seconds(60))
    await finish(store)  // the cancelled call fed nothing back
  }

  @Test func newCredentialsWhileAuthenticatingRestartTheRequest() async {
    let backend = StubAuthBackend(clock: clock)
    let store = store(backend)
    let grace = Auth.Credentials(username: "grace", password: "pw2")
    store.send(.action(.login(username: "ada", password: "pw"))) { $0 = .authenticating(ada) }
    store.send(
      .action(.login(username: "grace", password: "pw2")),
      effects: .started("authenticate").cancelling("authenticate")
    ) { $0 = .authenticating(grace) }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    await store.receive(.authenticationResult(.success("token-grace"))) {
      $0 = .authenticated(token: "token-grace")
    }
    await finish(store)
  }

  @Test func aSlowServerTimesOut() async {
    let backend = StubAuthBackend(clock: clock, latency: .seconds(60))
    let store = store(backend)
    store.send(.action(.login(username: "ada", password: "pw"))) { $0 = .authenticating(ada) }
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(10))
    await store.receive(.authenticationResult(.failure(.timedOut))) {
      $0 = .failed(.timedOut, credentials: ada)
    }
    #expect(backend.cancelled.value == 1)
    await finish(store)
  }

  @Test func anExternalLogoutNotificationLogsOut() async {
    let store = store(StubAuthBackend(clock: clock), initial: .authenticated(token: "t"))
    logouts.continuation.yield()
    await store.receive(.userDidLogout) { $0 = .idle }
    await finish(store)
  }

  @Test func loggingInWhileAuthenticatedIsIgnored() async {
    let store = store(StubAuthBackend(clock: clock), initial: .authenticated(token: "t"))
    store.send(.action(.login(username: "grace", password: "pw2")), effects: .nothing)
    await finish(store)
  }
}

/// The same service as it runs in an app: a `FeedbackService` on its own actor.
@Suite("Auth service on its own actor", .timeLimit(.minutes(5)))
@MainActor
struct AuthServiceActorTests {
  @Test func dispatchedActionsDriveTheObservableState() async {
    let clock = TestClock()
    let logouts = AsyncStream.makeStream(of: Void.self)
    let backend = StubAuthBackend(clock: clock)
    var service: AuthService? = AuthService(
      api: backend.api, clock: clock, logouts: logouts.stream)
    weak let weakService = service
    var states = service!.cell.values(of: \.self).makeAsyncIterator()
    #expect(await states.next() == .idle)

    service?.dispatch(.login(username: "ada", password: "pw"))
    #expect(await states.next() == .authenticating(.init(username: "ada", password: "pw")))
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    #expect(await states.next() == .authenticated(token: "token-ada"))
    #expect(service?.state == .authenticated(token: "token-ada"))

    logouts.continuation.yield()
    #expect(await states.next() == .idle)

    let system = service!.system
    service = nil  // tears the system down
    #expect(weakService == nil)
    await system.waitUntilIdle()
    #expect(system.isCancelled)
  }
}
