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
    try await awaitActionEffects()
  }

  // MARK: Realtime

  /// Connects the realtime connection.
  ///
  /// - Throws: `AppActionError.realtime` when it is not disconnected or failed.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func realtimeConnect() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.realtimeService.connect()
    } catch {
      throw .app(error)
    }
    try await awaitActionEffects()
  }

  /// Disconnects the realtime connection.
  ///
  /// - Throws: `AppActionError.realtime` when already disconnected.
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func realtimeDisconnect() async throws(AppRuntimeError) {
    do throws(AppActionError) {
      try await launch.realtimeService.disconnect()
    } catch {
      throw .app(error)
    }
    try await awaitActionEffects()
  }
}
