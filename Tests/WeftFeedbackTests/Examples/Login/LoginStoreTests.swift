import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// The login screen's loop, exhaustively, against a stub auth service.
@Suite("Login store", .timeLimit(.minutes(5)))
@MainActor
struct LoginStoreTests {
  let auth = StubAuthService()

  func store() -> TestStore<Login.State, Login.Event> {
    TestStore(
      initial: Login.State(), reduce: Login.reduce, feedbacks: Login.feedbacks(auth: auth))
  }

  @Test func fieldsEnableTheButtonAndATapAsksTheServiceToLogIn() async {
    let store = store()
    await store.receive(.authStateChanged(.idle))  // the service's current state comes first
    store.send(.action(.usernameChanged("ada"))) { $0.username = "ada" }
    store.send(.action(.loginTapped))  // disabled: nothing happens
    #expect(auth.dispatched.values.isEmpty)
    store.send(.action(.passwordChanged("pw"))) {
      $0.password = "pw"
      $0.isLoginButtonEnabled = true
    }
    store.send(.action(.loginTapped))
    #expect(auth.dispatched.values == [.login(username: "ada", password: "pw")])

    let credentials = Auth.Credentials(username: "ada", password: "pw")
    auth.cell.commit(.authenticating(credentials))
    await store.receive(.authStateChanged(.authenticating(credentials))) {
      $0.isLoading = true
      $0.isLoginButtonEnabled = false
    }
    auth.cell.commit(.authenticated(token: "t"))
    await store.receive(.authStateChanged(.authenticated(token: "t"))) {
      $0.isLoading = false
      $0.isLoginButtonEnabled = true
    }
    store.skipInFlightEffects()  // the auth-state subscription lives as long as the store
    await store.finish()
  }

  @Test func aFailureShowsAnErrorThatCanBeDismissed() async {
    let store = store()
    await store.receive(.authStateChanged(.idle))
    let credentials = Auth.Credentials(username: "ada", password: "bad")
    auth.cell.commit(.failed(.invalidCredentials, credentials: credentials))
    await store.receive(.authStateChanged(.failed(.invalidCredentials, credentials: credentials))) {
      $0.errorMessage = "The username or password is incorrect."
    }
    store.send(.action(.dismissError)) { $0.errorMessage = nil }
    store.skipInFlightEffects()
    await store.finish()
  }
}

/// The real `FeedbackStore`: synchronous dispatch on the MainActor and typed routes.
@Suite("Login store routes", .timeLimit(.minutes(5)))
@MainActor
struct LoginStoreRouteTests {
  @Test func authenticationRoutesHomeAndFailureRoutesToAnError() async {
    let auth = StubAuthService()
    let store = LoginStore(auth: auth)
    let routes = store.routes()
    var states = store.cell.values(of: \.isLoading).makeAsyncIterator()
    #expect(await states.next() == false)

    store.dispatch(.usernameChanged("ada"))
    store.dispatch(.passwordChanged("pw"))
    #expect(store.state.isLoginButtonEnabled)  // reduced synchronously
    store.dispatch(.loginTapped)
    #expect(auth.dispatched.values == [.login(username: "ada", password: "pw")])

    let credentials = Auth.Credentials(username: "ada", password: "pw")
    auth.cell.commit(.authenticating(credentials))
    #expect(await states.next() == true)
    auth.cell.commit(.failed(.timedOut, credentials: credentials))
    #expect(await states.next() == false)
    auth.cell.commit(.authenticating(credentials))
    #expect(await states.next() == true)
    auth.cell.commit(.authenticated(token: "t"))
    #expect(await states.next() == false)

    store.cancel()
    var seen: [Login.Route] = []
    for await route in routes { seen.append(route) }
    #expect(seen == [.showError("The server did not answer in time."), .navigateToHome])
  }

  @Test func theStoreAndTheRealServiceTogether() async {
    let clock = TestClock()
    let logouts = AsyncStream.makeStream(of: Void.self)
    let service = AuthService(
      api: StubAuthBackend(clock: clock).api, clock: clock, logouts: logouts.stream)
    var store: LoginStore? = LoginStore(auth: service)
    weak let weakStore = store
    var routes = store!.routes().makeAsyncIterator()
    store?.dispatch(.usernameChanged("ada"))
    store?.dispatch(.passwordChanged("pw"))
    store?.dispatch(.loginTapped)
    await clock.waitForSleepers(count: 2)
    await clock.advance(by: .seconds(1))
    #expect(await routes.next() == .navigateToHome)
    #expect(service.state == .authenticated(token: "token-ada"))
    let system = store!.system
    store = nil
    #expect(weakStore == nil)
    #expect(await routes.next() == nil)  // releasing the store ends its route streams
    await system.waitUntilIdle()
    service.cancel()
    await service.system.waitUntilIdle()
  }
}
