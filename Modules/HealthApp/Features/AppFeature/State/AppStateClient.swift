import AuthFeature
import Foundation
import WeftCore

/// The client that owns `AppState`: every change is one commit through one of its methods.
///
/// ```swift
/// let app = AppStateClient(monitor: monitor)
/// try await app.present(sheetNamed: "settings")
/// app.state.presentedSheet        // .settings, read synchronously
/// ```
///
/// - Complexity: each method is at most one commit (none when nothing changes): O(s + k)
///   fan-out, s = distinct selectors, k = subscribers whose value changed.
/// - Note: Isolation: an actor; reads are synchronous from any isolation.
/// - Note: Allocations: none beyond the commit's.
public actor AppStateClient: Client {
  /// The cell holding the state.
  public nonisolated let cell: StateCell<AppState>

  /// Makes the client in the launch state.
  ///
  /// - Complexity: O(1).
  public init(_ initial: AppState = AppState(), monitor: PerformanceMonitor = .shared) {
    cell = StateCell(initial, name: "AppState", monitor: monitor)
  }

  // MARK: Session

  /// Mirrors the auth session: user and token, or both cleared.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func setSession(_ session: AuthSession?) {
    let state = cell.state
    guard state.currentUser != session?.user || state.authToken != session?.token else { return }
    update { state in
      let user = session?.user
      if state.currentUser != user { state.currentUser = user }
      if state.authToken != session?.token { state.authToken = session?.token }
    }
  }

  /// Whether a blocking operation is in progress.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func setLoading(_ loading: Bool) {
    guard cell.state.isLoading != loading else { return }
    update { $0.isLoading = loading }
  }

  /// Shows or clears the global error.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func setGlobalError(_ message: String?) {
    guard cell.state.globalError != message else { return }
    update { $0.globalError = message }
  }

  /// Sets the sync status.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func setSyncStatus(_ status: SyncStatus) {
    guard cell.state.syncStatus != status else { return }
    update { $0.syncStatus = status }
  }

  // MARK: Navigation

  /// Selects `tab`.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func select(_ tab: AppTab) {
    guard cell.state.selectedTab != tab else { return }
    update { $0.selectedTab = tab }
  }

  /// Selects the tab named `name`.
  ///
  /// - Throws: `AppActionError.unknownTab`.
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func select(tabNamed name: String) throws(AppActionError) {
    guard let tab = AppTab(rawValue: name) else { throw .unknownTab(name) }
    select(tab)
  }

  /// Pushes `route` on the navigation stack.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func push(_ route: String) {
    update { $0.navigationPath.append(route) }
  }

  /// Pops the top of the navigation stack.
  ///
  /// - Throws: `AppActionError.nothingToPop` at the root.
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func pop() throws(AppActionError) {
    guard !cell.state.navigationPath.isEmpty else { throw .nothingToPop }
    update { _ = $0.navigationPath.popLast() }
  }

  /// Presents `sheet` (replacing any other).
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func present(_ sheet: AppSheet) {
    guard cell.state.presentedSheet != sheet else { return }
    update { $0.presentedSheet = sheet }
  }

  /// Presents the sheet named `name`.
  ///
  /// - Throws: `AppActionError.unknownSheet`.
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func present(sheetNamed name: String) throws(AppActionError) {
    guard let sheet = AppSheet(name: name) else { throw .unknownSheet(name) }
    present(sheet)
  }

  /// Dismisses the presented sheet.
  ///
  /// - Throws: `AppActionError.noSheet` when none is presented.
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func dismissSheet() throws(AppActionError) {
    guard cell.state.presentedSheet != nil else { throw .noSheet }
    update { $0.presentedSheet = nil }
  }

  /// Presents `alert` (replacing any other).
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func present(_ alert: AppAlert) {
    guard cell.state.presentedAlert != alert else { return }
    update { $0.presentedAlert = alert }
  }

  /// Dismisses the presented alert.
  ///
  /// - Throws: `AppActionError.noAlert` when none is presented.
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func dismissAlert() throws(AppActionError) {
    guard cell.state.presentedAlert != nil else { throw .noAlert }
    update { $0.presentedAlert = nil }
  }

  /// Turns the feature flag `name` on or off.
  ///
  /// - Throws: `AppActionError.invalidFlagName` for an empty name or one with other
  ///   characters than letters, digits, `-`, `_` and `.`.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func setFlag(_ name: String, enabled: Bool) throws(AppActionError) {
    let allowed = name.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
    }
    guard !name.isEmpty, allowed else { throw .invalidFlagName(name) }
    guard cell.state.featureFlags[name] != enabled else { return }
    update { $0.featureFlags[name] = enabled }
  }

  // MARK: Orchestration

  /// Applies the app-level part of the login screen's route.
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func handle(_ route: AuthFeature.LoginRoute) {
    update { state in
      switch route {
      case .home:
        state.selectedTab = .dashboard
        state.navigationPath = []
        if case .emailVerification = state.presentedSheet { state.presentedSheet = nil }
        state.globalError = nil
      case .verifyEmail(let email):
        state.presentedSheet = .emailVerification(email: email)
      case .login(let reason):
        state.navigationPath = []
        state.presentedSheet = nil
        state.presentedAlert = .info(message: reason.description)
      }
    }
  }

  /// Clears everything that belongs to the signed-in user: user, token, navigation, sheet,
  /// alert, error, sync status, loading. Feature flags stay (they belong to the device).
  ///
  /// - Complexity: one commit: O(s + k), s = distinct selectors, k = subscribers whose value changed.
  public func clearForLogout() {
    update { state in
      let flags = state.featureFlags
      state = AppState()
      state.featureFlags = flags
    }
  }
}
