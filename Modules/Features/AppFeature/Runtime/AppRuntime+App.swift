import Foundation
import HealthDomain
import WeftNetworking

extension AppRuntime {
  // MARK: App state

  /// Selects the tab named `name` (`dashboard`, `health`, `insights`, `profile`).
  ///
  /// - Complexity: O(1): one commit; nothing to settle.
  public func selectTab(_ name: String) async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.select(tabNamed: name)
    } catch {
      throw .app(error)
    }
  }

  /// Pushes `route` on the navigation stack.
  ///
  /// - Complexity: O(1) amortized: one commit.
  public func pushNavigation(_ route: String) async {
    await launch.appState.push(route)
  }

  /// Pops the navigation stack.
  ///
  /// - Complexity: O(1): one commit; nothing to settle.
  public func popNavigation() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.pop()
    } catch {
      throw .app(error)
    }
  }

  /// Presents the sheet named `name`.
  ///
  /// - Complexity: O(1): one commit; nothing to settle.
  public func presentSheet(_ name: String) async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.present(sheetNamed: name)
    } catch {
      throw .app(error)
    }
  }

  /// Dismisses the presented sheet.
  ///
  /// - Complexity: O(1): one commit; nothing to settle.
  public func dismissSheet() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.dismissSheet()
    } catch {
      throw .app(error)
    }
  }

  /// Dismisses the presented alert.
  ///
  /// - Complexity: O(1): one commit; nothing to settle.
  public func dismissAlert() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.dismissAlert()
    } catch {
      throw .app(error)
    }
  }

  /// Turns the feature flag `name` on or off (`offlineMode` stops syncing while on).
  ///
  /// - Complexity: one commit per field set.
  public func setFeature(_ name: String, enabled: Bool) async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.appState.setFlag(name, enabled: enabled)
    } catch {
      throw .app(error)
    }
    try await settleIfAuto()
  }

  // MARK: Realtime

  /// Connects the realtime connection.
  ///
  /// - Throws: `AppActionError.realtime` when it is not disconnected or failed.
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func realtimeConnect() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.realtimeService.connect()
    } catch {
      throw .app(error)
    }
    try await settleIfAuto()
  }

  /// Disconnects the realtime connection.
  ///
  /// - Throws: `AppActionError.realtime` when already disconnected.
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func realtimeDisconnect() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.realtimeService.disconnect()
    } catch {
      throw .app(error)
    }
    try await settleIfAuto()
  }

  /// Drops the realtime connection from the server side; it reconnects with backoff.
  ///
  /// - Throws: `AppRuntimeError.simulationOnly` live; `AppActionError.realtime` when not
  ///   connected.
  ///
  /// - Complexity: the work it starts, plus settling (see `settle()`).
  public func realtimeDrop() async throws(AppRuntimeError) {
    let server = try simulated("realtime drop").realtime
    do throws(AppActionError) {
      try await launch.realtimeService.simulateDrop { server.drop("simulated drop") }
    } catch {
      throw .app(error)
    }
    try await settleIfAuto()
  }

  /// The server generates an insight and pushes it over the realtime connection; the app
  /// stores it and the dashboard shows it.
  ///
  /// - Throws: `AppRuntimeError.simulationOnly` live; `AppActionError.realtime` when the
  ///   connection is not open.
  ///
  /// - Complexity: one commit per field set.
  public func pushInsight(title: String, body: String? = nil) async throws(AppRuntimeError) {
    let environment = try simulated("realtime push")
    guard environment.realtime.isConnected else {
      throw .app(.realtime("the realtime connection is not open: connect it before pushing"))
    }
    let insight = environment.server.addInsight(title: title, body: body ?? title)
    let text: String
    do {
      text = String(decoding: try HealthAPI.coding.makeEncoder().encode(insight), as: UTF8.self)
    } catch {
      throw .app(.realtime("the insight could not be encoded: \(error)"))
    }
    if !environment.realtime.push(.text(text)) {
      throw .app(.realtime("the realtime connection closed before the push"))
    }
    try await settleIfAuto()
  }
}
