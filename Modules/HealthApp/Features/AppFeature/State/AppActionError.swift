/// Why an app-state action could not be applied. The wording is pinned by tests.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum AppActionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No tab has that name.
  case unknownTab(String)
  /// No sheet has that name.
  case unknownSheet(String)
  /// No feature flag has that name (names are letters, digits, `-`, `_` and `.`).
  case invalidFlagName(String)
  /// The navigation stack is already at its root.
  case nothingToPop
  /// No sheet is presented.
  case noSheet
  /// No alert is presented.
  case noAlert
  /// The action needs a signed-in user.
  case notAuthenticated(action: String)
  /// The realtime connection is not in a state where the action makes sense.
  case realtime(String)

  public var description: String {
    switch self {
    case .unknownTab(let name):
      "no tab is named \"\(name)\"; tabs: \(AppTab.allCases.map(\.rawValue).joined(separator: ", "))"
    case .unknownSheet(let name):
      "no sheet is named \"\(name)\"; sheets: \(AppSheet.names.joined(separator: ", "))"
    case .invalidFlagName(let name):
      "\"\(name)\" is not a feature flag name: use letters, digits, '-', '_' and '.'"
    case .nothingToPop:
      "the navigation stack is at its root: there is nothing to pop"
    case .noSheet:
      "no sheet is presented: there is nothing to dismiss"
    case .noAlert:
      "no alert is presented: there is nothing to dismiss"
    case .notAuthenticated(let action):
      "\(action) needs a signed-in user: log in first"
    case .realtime(let detail):
      detail
    }
  }
}
