import AuthFeature
import Foundation
import HealthDomain
import WeftNetworking

extension AppRuntime {
  /// Types the credentials into the login screen and presses the button, as a user would.
  ///
  /// Settles: afterwards `auth.state` is `authenticated` or `failed`.
  ///
  /// - Complexity: one commit per field set.
  public func login(email: String, password: String) async throws(AppRuntimeError) {
    launch.login.send(.setEmail(email))
    launch.login.send(.setPassword(password))
    launch.login.send(.submit)
    try await settleIfAuto()
  }

  /// Types into the login screen's fields (nil leaves a field as it is).
  ///
  /// - Complexity: O(1): one commit.
  public func setLoginFields(email: String? = nil, password: String? = nil) {
    if let email { launch.login.send(.setEmail(email)) }
    if let password { launch.login.send(.setPassword(password)) }
  }

  /// Presses the login button (ignored unless both fields are filled and nothing is loading).
  ///
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func submitLogin() async throws(AppRuntimeError) {
    launch.login.send(.submit)
    try await settleIfAuto()
  }

  /// Dismisses the login screen's error message.
  ///
  /// - Complexity: O(1): one commit.
  public func dismissLoginError() {
    launch.login.send(.dismissError)
  }

  /// Retries the last retryable sign-in (a network failure, an unverified email).
  ///
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func retryAuth() async throws(AppRuntimeError) {
    await launch.auth.retry()
    try await settleIfAuto()
  }

  /// Signs out: the orchestrated logout across every client (see `AppLaunch.logout()`).
  ///
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func logout() async throws(AppRuntimeError) {
    let launch = self.launch
    try await run { await launch.logout() }
  }

  /// Makes the session's token expire now, on the server and in the app: the app goes back
  /// to the login screen with "session expired".
  ///
  /// - Throws: `AppActionError.notAuthenticated` when nobody is signed in.
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func expireSession() async throws(AppRuntimeError) {
    guard let session = launch.auth.state.session else {
      throw .app(.notAuthenticated(action: "session.expire"))
    }
    simulation?.server.expire(token: session.token)
    do {
      try await launch.auth.endSession(.sessionExpired)
    } catch {
      await launch.appState.setGlobalError(error.description)
    }
    try await settleIfAuto()
  }

  /// The user opened the verification link: the server marks the email verified and the
  /// verification sheet is dismissed. Sign in (or `retryAuth()`) afterwards.
  ///
  /// - Throws: `AppRuntimeError.simulationOnly` live; `AppActionError.noSheet` when no
  ///   verification is pending.
  ///
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func verifyEmail() async throws(AppRuntimeError) {
    let environment = try simulated("verify-email")
    guard case .emailVerification(let email) = launch.appState.state.presentedSheet else {
      throw .app(.noSheet)
    }
    environment.server.verify(email: email)
    do throws(AppActionError) {
      try await launch.appState.dismissSheet()
    } catch {
      throw .app(error)
    }
    try await settleIfAuto()
  }
}
