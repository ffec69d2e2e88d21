import WeftCore
import WeftFeedback

/// The login screen of the WhimCore guide, ported to Weft: username and password fields,
/// button enablement, error dismissal, and the route home once authenticated.
enum Login {
  struct State: Sendable, Equatable {
    var username = ""
    var password = ""
    var isLoading = false
    var errorMessage: String?
    var isLoginButtonEnabled = false

    mutating func updateButton() {
      isLoginButtonEnabled = !isLoading && !username.isEmpty && !password.isEmpty
    }
  }

  enum Action: Sendable, Equatable {
    case usernameChanged(String)
    case passwordChanged(String)
    case loginTapped
    case dismissError
  }

  enum Event: Sendable, Equatable {
    case action(Action)
    case authStateChanged(Auth.State)
  }

  enum Route: Sendable, Equatable {
    case navigateToHome
    case showError(String)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .action(.usernameChanged(let username)): state.username = username
    case .action(.passwordChanged(let password)): state.password = password
    case .action(.loginTapped): state.errorMessage = nil
    case .action(.dismissError): state.errorMessage = nil
    case .authStateChanged(let auth):
      state.isLoading = auth.isLoading
      if case .failed(let error, _) = auth { state.errorMessage = error.message }
    }
    state.updateButton()
  }

  /// Routes follow auth: home once authenticated, an error when it failed.
  static func route(_ event: Event, _ state: State) -> Route? {
    switch event {
    case .authStateChanged(.authenticated): .navigateToHome
    case .authStateChanged(.failed(let error, _)): .showError(error.message)
    default: nil
    }
  }

  static func feedbacks(auth: any Service<Auth.State, Auth.Action>) -> [Feedback<State, Event>] {
    [
      // Each distinct auth state, the current one first.
      .just(effects: auth.cell.values(of: \.self).map(Event.authStateChanged)).named("authState"),
      // A tap on an enabled button asks the service to log in.
      .imperative { _ in
        { state, event in
          guard case .action(.loginTapped) = event, state.isLoginButtonEnabled else { return }
          auth.dispatch(.login(username: state.username, password: state.password))
        }
      }.named("login"),
    ]
  }
}

/// The login screen's store.
typealias LoginStore = FeedbackStore<Login.State, Login.Action, Login.Event, Login.Route>

extension FeedbackStore
where
  State == Login.State, Action == Login.Action, Event == Login.Event, Route == Login.Route
{
  convenience init(auth: any Service<Auth.State, Auth.Action>) {
    self.init(
      initial: Login.State(), name: "LoginStore", reduce: Login.reduce,
      actions: Login.Event.action, feedbacks: Login.feedbacks(auth: auth), routes: Login.route)
  }
}

/// A stand-in auth service whose state the test sets and which records what it is asked.
final class StubAuthService: Service {
  let cell = StateCell(Auth.State.idle, name: "StubAuthService")
  let dispatched = Recorder<Auth.Action>()

  func dispatch(_ action: Auth.Action) { dispatched.append(action) }
}
