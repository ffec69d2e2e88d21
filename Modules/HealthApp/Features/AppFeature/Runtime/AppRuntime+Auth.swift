import AuthFeature
import Foundation
import HealthDomain
import WeftNetworking

extension AppRuntime {
  /// Types the credentials into the login screen and presses the button, as a user would.
  ///
  /// Once its effects ran (`awaitActionEffects()`), `auth.state` is `authenticated` or
  /// `failed`.
  ///
  /// - Complexity: one commit per field set.
  public func login(email: String, password: String) async throws(AppRuntimeError) {
    launch.login.send(.setEmail(email))
    launch.login.send(.setPassword(password))
    launch.login.send(.submit)
    try await awaitActionEffects()
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
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func submitLogin() async throws(AppRuntimeError) {
    launch.login.send(.submit)
    try await awaitActionEffects()
  }

  /// Dismisses the login screen's error message.
  ///
  /// - Complexity: O(1): one commit.
  public func dismissLoginError() {
    launch.login.send(.dismissError)
  }

  /// Retries the last retryable sign-in (a network failure, an unverified email).
  ///
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func retryAuth() async throws(AppRuntimeError) {
    await launch.auth.retry()
    try await awaitActionEffects()
  }

  /// Signs out: the orchestrated logout across every client (see `AppLaunch.logout()`).
  ///
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func logout() async throws(AppRuntimeError) {
    let launch = self.launch
    try await run { await launch.logout() }
  }
}
