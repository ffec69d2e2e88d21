import AppFeature
import Foundation
import HealthDomain
import WeftNetworking

extension SimulatedHealthApp {
  // MARK: Network

  /// Sets the simulated latency: `base` plus a seeded uniform share of `jitter`.
  ///
  /// - Complexity: O(1).
  public func setLatency(_ base: Duration, jitter: Duration = .zero) {
    simulation.network.setLatency(base, jitter: jitter)
  }

  /// Injects a fault into the simulated network.
  ///
  /// - Complexity: O(1).
  public func injectFault(_ fault: NetworkFaultSpec) {
    simulation.network.inject(fault)
  }

  /// Removes every injected fault.
  ///
  /// - Complexity: O(1).
  public func clearFaults() {
    simulation.network.clearFaults()
  }

  // MARK: Realtime

  /// Drops the realtime connection from the server side; it reconnects with backoff.
  ///
  /// - Throws: `AppActionError.realtime` when not connected.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func realtimeDrop() async throws(AppRuntimeError) {
    let state = launch.realtime.cell.state.connection
    guard state == .connected else {
      throw .app(.realtime("the realtime connection is \(state): connect it before dropping it"))
    }
    _ = simulation.realtime.drop("simulated drop")
    try await awaitActionEffects()
  }

  /// The server generates an insight and pushes it over the realtime connection; the app
  /// stores it and the dashboard shows it.
  ///
  /// - Throws: `AppActionError.realtime` when the connection is not open.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func pushInsight(title: String, body: String? = nil) async throws(AppRuntimeError) {
    guard simulation.realtime.isConnected else {
      throw .app(.realtime("the realtime connection is not open: connect it before pushing"))
    }
    let insight = simulation.server.addInsight(title: title, body: body ?? title)
    let text: String
    do {
      text = String(decoding: try HealthAPI.coding.makeEncoder().encode(insight), as: UTF8.self)
    } catch {
      throw .app(.realtime("the insight could not be encoded: \(error)"))
    }
    if !simulation.realtime.push(.text(text)) {
      throw .app(.realtime("the realtime connection closed before the push"))
    }
    try await awaitActionEffects()
  }

  // MARK: Auth

  /// The user opened the verification link: the server marks the email verified and the
  /// verification sheet is dismissed. Sign in (or `retryAuth()`) afterwards.
  ///
  /// - Throws: `AppActionError.noSheet` when no verification is pending.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func verifyEmail() async throws(AppRuntimeError) {
    guard case .emailVerification(let email) = launch.appState.state.presentedSheet else {
      throw .app(.noSheet)
    }
    simulation.server.verify(email: email)
    do throws(AppActionError) {
      try await launch.appState.dismissSheet()
    } catch {
      throw .app(error)
    }
    try await awaitActionEffects()
  }
}
