import WeftCore
import WeftFeedback

/// The authentication service of the WhimCore guide, ported to Weft: a feedback loop on its
/// own actor. `idle → authenticating(credentials) → authenticated(token) | failed(error)`,
/// with retry, logout, and an external logout notification as an event source.
enum Auth {
  struct Credentials: Sendable, Hashable {
    var username: String
    var password: String
  }

  enum State: Sendable, Equatable {
    case idle
    case authenticating(Credentials)
    case authenticated(token: String)
    case failed(AuthError, credentials: Credentials)

    /// The credentials being checked; the query of the `authenticate` feedback.
    var authenticatingCredentials: Credentials? {
      guard case .authenticating(let credentials) = self else { return nil }
      return credentials
    }

    var isAuthenticated: Bool {
      guard case .authenticated = self else { return false }
      return true
    }

    var isLoading: Bool { authenticatingCredentials != nil }
  }

  enum Action: Sendable, Equatable {
    case login(username: String, password: String)
    case logout
    case retryLogin
  }

  enum Event: Sendable, Equatable {
    case action(Action)
    case authenticationResult(Result<String, AuthError>)
    case userDidLogout
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .action(.login(let username, let password)):
      guard !state.isAuthenticated else { return }  // log out first
      state = .authenticating(Credentials(username: username, password: password))
    case .action(.logout), .userDidLogout:
      state = .idle
    case .action(.retryLogin):
      guard case .failed(_, let credentials) = state else { return }
      state = .authenticating(credentials)
    case .authenticationResult(.success(let token)):
      guard state.isLoading else { return }
      state = .authenticated(token: token)
    case .authenticationResult(.failure(let error)):
      guard let credentials = state.authenticatingCredentials else { return }
      state = .failed(error, credentials: credentials)
    }
  }

  /// The service's feedbacks: authentication while credentials are being checked (with a
  /// timeout on `clock`), and the external logout notifications.
  static func feedbacks(
    api: AuthAPI, clock: any Clock<Duration>, timeout: Duration = .seconds(10),
    logouts: some AsyncSequence<Void, Never> & Sendable
  ) -> [Feedback<State, Event>] {
    [
      .lensingSkippingRepeated(state: \.authenticatingCredentials) { credentials in
        await authenticate(credentials, api: api, clock: clock, timeout: timeout)
      }.named("authenticate"),
      .just(effects: logouts.map { _ in Event.userDidLogout }).named("logouts"),
    ]
  }

  /// Calls the API, racing it against `timeout`; every error becomes an event.
  static func authenticate(
    _ credentials: Credentials, api: AuthAPI, clock: any Clock<Duration>, timeout: Duration
  ) async -> Event? {
    do {
      let token = try await withThrowingTaskGroup(of: String?.self) { group in
        group.addTask { try await api.authenticate(credentials) }
        group.addTask {
          try await clock.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let token = first else {
          throw AuthError.timedOut
        }
        return token
      }
      return .authenticationResult(.success(token))
    } catch is CancellationError {
      return nil  // superseded by new credentials or a logout: no event
    } catch let error as AuthError {
      return .authenticationResult(.failure(error))
    } catch {
      return .authenticationResult(.failure(.network(String(describing: error))))
    }
  }
}

/// What can go wrong while authenticating.
enum AuthError: Error, Sendable, Equatable {
  case invalidCredentials
  case timedOut
  case network(String)

  var message: String {
    switch self {
    case .invalidCredentials: "The username or password is incorrect."
    case .timedOut: "The server did not answer in time."
    case .network(let reason): "Network error: \(reason)"
    }
  }
}

/// The backend the service talks to.
struct AuthAPI: Sendable {
  var authenticate: @Sendable (Auth.Credentials) async throws -> String
}

/// The authentication service: a `FeedbackService` on its own actor.
typealias AuthService = FeedbackService<Auth.State, Auth.Action, Auth.Event>

extension FeedbackService where State == Auth.State, Action == Auth.Action, Event == Auth.Event {
  convenience init(
    api: AuthAPI, clock: any Clock<Duration>, logouts: some AsyncSequence<Void, Never> & Sendable
  ) {
    self.init(
      initial: .idle, name: "AuthService", reduce: Auth.reduce, actions: Auth.Event.action,
      feedbacks: Auth.feedbacks(api: api, clock: clock, logouts: logouts))
  }
}
