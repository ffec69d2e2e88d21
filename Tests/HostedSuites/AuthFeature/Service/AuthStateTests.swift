import AuthFeature
import Foundation
import Testing

@Suite("AuthState.reduce")
struct AuthStateTests {
  static let states: [AuthState] = [
    .idle, .authenticating(Fixture.ada), .authenticated(Fixture.session),
    .failed(.network("offline"), retry: Fixture.ada), .failed(.invalidCredentials, retry: nil),
  ]
  static let other = Credentials(email: "grace@example.com", password: "pw")
  static let events: [AuthEvent] = [
    .login(other), .retry, .finished(.success(Fixture.session)),
    .finished(.failure(.invalidCredentials)), .finished(.failure(.network("offline"))),
    .finished(.failure(.emailNotVerified(email: "ada@example.com"))), .logout,
    .sessionEnded(.sessionExpired),
  ]

  /// The machine, written as a table of rules in a different shape from the reducer.
  static func expected(_ state: AuthState, _ event: AuthEvent) -> AuthState {
    switch (state, event) {
    case (_, .login(let credentials)): .authenticating(credentials)
    case (_, .logout): .idle
    case (.failed(_, let retry?), .retry): .authenticating(retry)
    case (.authenticating, .finished(.success(let session))): .authenticated(session)
    case (.authenticating(let credentials), .finished(.failure(let error))):
      .failed(error, retry: error.isRetryable ? credentials : nil)
    case (.authenticated, .sessionEnded(let error)): .failed(error, retry: nil)
    default: state
    }
  }

  @Test func everyEventInEveryStateFollowsTheTable() {
    forEvery(Self.states, Self.events) { state, event in
      var reduced = state
      AuthState.reduce(&reduced, event)
      #expect(reduced == Self.expected(state, event), "\(state) + \(event)")
    }
  }

  @Test func wrongCredentialsCannotBeRetriedButANetworkFailureCan() {
    var state = AuthState.authenticating(Fixture.ada)
    AuthState.reduce(&state, .finished(.failure(.invalidCredentials)))
    AuthState.reduce(&state, .retry)
    #expect(state == .failed(.invalidCredentials, retry: nil))

    state = .authenticating(Fixture.ada)
    AuthState.reduce(&state, .finished(.failure(.network("offline"))))
    AuthState.reduce(&state, .retry)
    #expect(state == .authenticating(Fixture.ada))
  }

  @Test func namesAndDescriptionsNeverShowThePassword() {
    let state = AuthState.authenticating(Fixture.ada)
    #expect(state.name == "authenticating")
    #expect(!state.description.contains("correct-horse"))
    #expect(Fixture.ada.description == "ada@example.com (password: 13 characters)")
    #expect(
      AuthState.failed(.network("x"), retry: Fixture.ada).description
        == "failed(network, retryable)")
  }
}

@Suite("AuthError messages")
struct AuthErrorMessageTests {
  @Test func everyMessageIsPinned() {
    #expect(
      AuthError.invalidCredentials.description
        == "The email or password is incorrect. Check them and try again.")
    #expect(
      AuthError.emailNotVerified(email: "grace@example.com").description
        == "Verify grace@example.com before signing in: open the link we emailed you, then sign "
        + "in again.")
    #expect(AuthError.sessionExpired.description == "Your session expired. Sign in again.")
    #expect(AuthError.tokenRejected.description == "You were signed out. Sign in again.")
    #expect(
      AuthError.network("HTTP 503").description
        == "Could not reach the server (HTTP 503). Check your connection and retry.")
    #expect(
      AuthError.storage("disk full").description
        == "Could not save the session on this device (disk full).")
  }
}
