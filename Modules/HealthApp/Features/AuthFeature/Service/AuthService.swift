import Foundation
import WeftCore
import WeftFeedback

/// What the auth service needs from the outside, chosen by the composition root.
///
/// - Note: Isolation: `Sendable`; the closures are called from the service's effects.
/// - Complexity: O(1) to make and copy.
public struct AuthDependencies: Sendable {
  /// The server calls.
  public var client: AuthClient
  /// Where the session is persisted.
  public var sessions: SessionStore
  /// Hands the current token (or nil) to whatever signs requests.
  public var setToken: @Sendable (String?) async -> Void
  /// The current date (the app's clock).
  public var now: @Sendable () -> Date

  /// Makes the dependencies.
  ///
  /// - Complexity: O(1); the system starts on its host.
  public init(
    client: AuthClient, sessions: SessionStore,
    setToken: @escaping @Sendable (String?) async -> Void,
    now: @escaping @Sendable () -> Date
  ) {
    self.client = client
    self.sessions = sessions
    self.setToken = setToken
    self.now = now
  }
}

/// Signs users in and out: a WeftFeedback feedback system over `AuthState`.
///
/// ```swift
/// let initial = await AuthService.restoredState(sessions: sessions, now: now)
/// let auth = AuthService(initial: initial, dependencies: dependencies)
/// await auth.login(Credentials(email: "ada@example.com", password: "correct-horse"))
/// // auth.state: .authenticating(…), then .authenticated(session) once the server answers
/// await auth.logout()
/// ```
///
/// The one effect, `authenticate`, runs while the state is `authenticating(credentials)`:
/// it calls the server, persists the session and hands its token on *before* the state
/// becomes `authenticated`, so a relaunch right after sign-in finds the session. Leaving
/// `authenticating` (a logout, a new login) cancels it.
///
/// > Important: `logout()` is this feature's part of the app's orchestrated logout: it
/// > clears the state, the token and the persisted session. Clearing other features' data is
/// > the composition root's job.
///
/// # Performance
/// One commit per event; one task per sign-in attempt. Nothing is slow except the server.
///
/// - Complexity: O(1) per event.
/// - Note: Isolation: the system runs on its own `FeedbackActor`; every method is callable
///   from any isolation. The state is readable synchronously from `cell`.
/// - Note: Allocations: one task per sign-in attempt.
public final class AuthService: Sendable {
  /// The feedback system; its cell holds the state.
  public let system: FeedbackSystem<AuthState, AuthEvent>
  private let dependencies: AuthDependencies

  /// Starts the service in `initial` (see `restoredState(sessions:now:)`).
  ///
  /// - Parameters:
  ///   - initial: the state to start in.
  ///   - dependencies: the server, the session store, the token sink, the clock.
  ///   - monitor: the performance monitor the state cell reports to.
  ///
  /// - Complexity: O(1); the system starts on its host.
  public init(
    initial: AuthState = .initial, dependencies: AuthDependencies,
    monitor: PerformanceMonitor = .shared
  ) {
    self.dependencies = dependencies
    system = FeedbackSystem(
      initial: initial, name: "AuthService", reduce: AuthState.reduce,
      feedbacks: Self.feedbacks(dependencies), monitor: monitor)
  }

  deinit { system.cancel() }

  /// The cell holding the state: read it synchronously, observe it with selectors.
  public var cell: StateCell<AuthState> { system.cell }

  /// The current state.
  public var state: AuthState { system.state }

  /// The feedbacks of the service: `authenticate`.
  ///
  /// Public so tests can run them in a `TestStore` with stub dependencies.
  ///
  /// - Complexity: O(1) to make.
  public static func feedbacks(
    _ dependencies: AuthDependencies
  ) -> [Feedback<
    AuthState, AuthEvent
  >] {
    [
      .lensingSkippingRepeated(state: { $0.authenticatingCredentials }) { credentials in
        let result = await dependencies.client.login(credentials)
        guard case .success(let session) = result else { return .finished(result) }
        if Task.isCancelled { return nil }
        do {
          try await dependencies.sessions.save(session)
        } catch {
          return .finished(.failure(.storage("\(error)")))
        }
        await dependencies.setToken(session.token)
        return .finished(.success(session))
      }.named("authenticate")
    ]
  }

  /// The state to start in after a launch: `authenticated` with the persisted session if it
  /// is still valid; `failed(.sessionExpired)` (and the record removed) if it expired;
  /// `failed(.storage(…))` when the saved session cannot be read (the login screen shows
  /// why; signing in again replaces the row); otherwise `idle`.
  ///
  /// - Complexity: one or two statements on the database.
  /// - Note: Isolation: any.
  public static func restoredState(
    sessions: SessionStore, now: @Sendable () -> Date
  ) async -> AuthState {
    let saved: AuthSession?
    do {
      saved = try await sessions.load()
    } catch {
      return .failed(.storage("the saved session could not be read: \(error)"), retry: nil)
    }
    guard let session = saved else { return .idle }
    if session.isValid(at: now()) { return .authenticated(session) }
    // An expired row that survives is found expired again at the next launch.
    // Either way the state is `sessionExpired`; nothing can sign in with the row.
    try? await sessions.clear()  // try?: see above
    return .failed(.sessionExpired, retry: nil)
  }

  // MARK: Intents

  /// Starts signing in with `credentials` and returns once the service is authenticating.
  ///
  /// The result arrives as a later state (`authenticated` or `failed`).
  ///
  /// - Complexity: O(1) here; the sign-in costs one request.
  /// - Note: Isolation: any; hops to the service's host.
  public func login(_ credentials: Credentials) async {
    await system.sendAndWait(.login(credentials))
  }

  /// Starts signing in without waiting: what a button handler calls.
  ///
  /// - Complexity: O(1); one task.
  /// - Note: Isolation: any.
  public func submit(_ credentials: Credentials) {
    let system = self.system
    Task { await system.sendAndWait(.login(credentials)) }
  }

  /// Tries the last retryable sign-in again; does nothing if there is none.
  ///
  /// - Note: Isolation: any.
  /// - Complexity: O(1).
  public func retry() async {
    await system.sendAndWait(.retry)
  }

  /// Signs out: the state becomes `idle`, a sign-in in progress is cancelled (and awaited),
  /// the token is cleared, the persisted session removed, and the server asked to revoke
  /// the token (best effort).
  ///
  /// - Throws: `SessionNotCleared` when the persisted session could not be deleted. The
  ///   sign-out itself happened (state, token, revocation); only the row is left, and the
  ///   caller should tell the user (the next launch could restore it).
  /// - Complexity: one database statement and at most one request.
  /// - Note: Isolation: any. Returns when all of it is done.
  public func logout() async throws(SessionNotCleared) {
    let session = state.session
    await system.sendAndWait(.logout)
    await system.waitForEffects(atMost: 0)
    await dependencies.setToken(nil)
    let cleared = await clearSavedSession()
    if let session { await dependencies.client.logout(session.token) }
    if let cleared { throw cleared }
  }

  /// Ends the session because the server refused its token: `failed(.sessionExpired)` if the
  /// token is past its expiry date, otherwise `failed(.tokenRejected)`. Clears the token and
  /// the persisted session. Does nothing when nobody is signed in.
  ///
  /// - Throws: `SessionNotCleared` when the persisted session could not be deleted (the
  ///   session ended all the same).
  /// - Note: Isolation: any.
  /// - Complexity: O(1).
  public func tokenRejected() async throws(SessionNotCleared) {
    guard let session = state.session else { return }
    let error: AuthError =
      session.isValid(at: dependencies.now()) ? .tokenRejected : .sessionExpired
    try await endSession(error)
  }

  /// Ends the session with `error` (`.sessionExpired` or `.tokenRejected`): the state
  /// becomes `failed(error)`, the token and the persisted session are cleared. Does nothing
  /// when nobody is signed in.
  ///
  /// - Throws: `SessionNotCleared` when the persisted session could not be deleted (the
  ///   session ended all the same).
  /// - Note: Isolation: any.
  /// - Complexity: O(1).
  public func endSession(_ error: AuthError) async throws(SessionNotCleared) {
    guard state.isAuthenticated else { return }
    await system.sendAndWait(.sessionEnded(error))
    await dependencies.setToken(nil)
    if let cleared = await clearSavedSession() { throw cleared }
  }

  /// Deletes the persisted session; the error when it could not.
  private func clearSavedSession() async -> SessionNotCleared? {
    do {
      try await dependencies.sessions.clear()
      return nil
    } catch {
      return SessionNotCleared(detail: "\(error)")
    }
  }

  /// Stops the service: cancels a sign-in in progress. Used when the app is torn down.
  ///
  /// - Complexity: O(1).
  public func cancel() { system.cancel() }
}
