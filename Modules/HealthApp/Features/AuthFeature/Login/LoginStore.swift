import WeftCore
import WeftFeedback

/// The login screen's store: fields, the enabled state of the button, the error message,
/// and routes, over the auth service.
///
/// ```swift
/// let login = LoginStore(auth: auth, onRoute: { route in app.handle(route) })
/// login.send(.setEmail("ada@example.com"))
/// login.send(.setPassword("correct-horse"))
/// login.send(.submit)                 // auth.state → authenticating → authenticated
/// // later: route .home; login.state.password == ""
/// ```
///
/// The store follows the auth service through a synchronous subscription to its cell: each
/// change is sent into the store (one MainActor hop), where it updates `isLoading`, the
/// error and the password, and may produce a route. Routes are handed to `onRoute`
/// synchronously, in the reduction that produced them, so the composition root can announce
/// the work it starts before this store's hop ends.
///
/// - Complexity: O(1) per action or auth change.
/// - Note: Isolation: `@MainActor`; the auth service runs on its own host.
/// - Note: Allocations: one MainActor job per auth change.
@MainActor
public final class LoginStore {
  /// The WeftFeedback store (its `cell` holds the state).
  public let store: FeedbackStore<LoginState, LoginAction, LoginEvent, LoginRoute>
  private var subscription: StateSubscription?

  /// Makes the screen's store following `auth`.
  ///
  /// - Parameters:
  ///   - auth: the auth service to follow and to submit to.
  ///   - monitor: the performance monitor the state cell reports to.
  ///   - onRoute: called with each route, synchronously, on the MainActor.
  ///
  /// - Complexity: O(1): one synchronous subscription to the auth cell.
  public init(
    auth: AuthService, monitor: PerformanceMonitor = .shared,
    onRoute: @escaping @Sendable (LoginRoute) -> Void = { _ in }
  ) {
    var initial = LoginState()
    initial.isLoading = auth.state.isLoading
    store = FeedbackStore(
      initial: initial, name: "LoginStore", reduce: LoginState.reduce, actions: LoginEvent.action,
      feedbacks: [Self.submitting(to: auth)],
      routes: { event, state in
        let route = LoginState.route(event, state)
        if let route { onRoute(route) }
        return route
      }, monitor: monitor)
    let system = store.system
    subscription = auth.cell.observeSynchronously(StateSelector(id: "LoginStore.auth") { $0 }) {
      change in
      system.send(.auth(change.value), isolation: nil)
    }
  }

  isolated deinit {
    subscription?.cancel()
  }

  /// The cell holding the state.
  public var cell: StateCell<LoginState> { store.cell }

  /// The current state.
  public var state: LoginState { store.state }

  /// Applies a user action; reduced before this returns.
  ///
  /// - Complexity: O(1).
  public func send(_ action: LoginAction) { store.dispatch(action) }

  /// Stops following the auth service and tears the store down.
  ///
  /// - Complexity: O(1).
  public func cancel() {
    subscription?.cancel()
    subscription = nil
    store.cancel()
  }

  private static func submitting(
    to auth: AuthService
  ) -> Feedback<LoginState, LoginEvent> {
    .imperative { _ in
      var lastSubmission = 0
      return { state, event in
        switch event {
        case .action(.submit) where state.submissions != lastSubmission:
          lastSubmission = state.submissions
          auth.submit(Credentials(email: state.email, password: state.password))
        default:
          break
        }
      }
    }.named("submit")
  }
}
