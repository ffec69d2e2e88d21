import AuthFeature
import Foundation

/// The app's global UI state: who is signed in, where the user is, what is presented, and
/// how syncing goes.
///
/// Held by `AppStateClient`; views read it synchronously and observe it through selectors.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct AppState: Sendable, Hashable {
  /// The signed-in user.
  public var currentUser: AuthUser?
  /// The bearer token of the session.
  public var authToken: String?
  /// The selected tab.
  public var selectedTab: AppTab = .dashboard
  /// The navigation stack of the selected tab, as route names (empty at the root).
  public var navigationPath: [String] = []
  /// The sheet on screen, if any.
  public var presentedSheet: AppSheet?
  /// The alert on screen, if any.
  public var presentedAlert: AppAlert?
  /// Whether a blocking operation (signing in or out) is in progress.
  public var isLoading = false
  /// An error the whole app shows (a banner), if any.
  public var globalError: String?
  /// How syncing with the server goes.
  public var syncStatus: SyncStatus = .idle
  /// Feature switches.
  public var featureFlags = FeatureFlags()

  /// The state at launch.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Whether a user is signed in (a user and a token).
  public var isAuthenticated: Bool { currentUser != nil && authToken != nil }
}

/// The app's tabs.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum AppTab: String, Sendable, Hashable, CaseIterable {
  case dashboard
  case health
  case insights
  case profile
}

/// The sheets the app presents.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum AppSheet: Sendable, Hashable, CustomStringConvertible {
  /// Asks the user to verify `email` before signing in.
  case emailVerification(email: String)
  /// The health-data entry form.
  case healthForm
  /// The grade-weights form.
  case gradeWeights
  /// Settings.
  case settings
  /// The detail of an insight.
  case insightDetail(id: String)

  /// The sheet's name, as flows and paths write it (`emailVerification`, ...).
  public var name: String {
    switch self {
    case .emailVerification: "emailVerification"
    case .healthForm: "healthForm"
    case .gradeWeights: "gradeWeights"
    case .settings: "settings"
    case .insightDetail: "insightDetail"
    }
  }

  /// The names `init?(name:)` accepts.
  public static let names = ["emailVerification", "healthForm", "gradeWeights", "settings"]

  /// The sheet named `name` (sheets that carry data get an empty value), or nil.
  ///
  /// - Complexity: O(1).
  public init?(name: String) {
    switch name {
    case "emailVerification": self = .emailVerification(email: "")
    case "healthForm": self = .healthForm
    case "gradeWeights": self = .gradeWeights
    case "settings": self = .settings
    default: return nil
    }
  }

  public var description: String { name }
}

/// The alerts the app presents.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum AppAlert: Sendable, Hashable, CustomStringConvertible {
  /// Something failed; `message` says what.
  case error(message: String)
  /// Something the user should know.
  case info(message: String)

  /// The alert's message.
  public var message: String {
    switch self {
    case .error(let message), .info(let message): message
    }
  }

  public var description: String {
    switch self {
    case .error(let message): "error: \(message)"
    case .info(let message): "info: \(message)"
    }
  }
}

/// How syncing with the server goes.
///
/// - Complexity: O(1) to make and compare.
/// - Note: Isolation: a `Sendable` value; any isolation.
public enum SyncStatus: Sendable, Hashable, CustomStringConvertible {
  /// Nothing has been synced yet, or there was nothing to do.
  case idle
  /// A pass is delivering queued changes; `progress` goes from 0 to 1.
  case syncing(progress: Double)
  /// The last pass could not deliver everything; `message` says why.
  case failed(message: String)
  /// The last pass delivered everything at `date`.
  case completed(Date)

  /// Every case's `name`, in declaration order.
  public static let names = ["idle", "syncing", "failed", "completed"]

  /// The case's name: `idle`, `syncing`, `failed` or `completed`.
  public var name: String {
    switch self {
    case .idle: "idle"
    case .syncing: "syncing"
    case .failed: "failed"
    case .completed: "completed"
    }
  }

  public var description: String {
    switch self {
    case .idle: "idle"
    case .syncing(let progress): "syncing(\(Int((progress * 100).rounded()))%)"
    case .failed(let message): "failed(\(message))"
    case .completed(let date): "completed(\(date.formatted(.iso8601)))"
    }
  }
}

/// Feature switches.
///
/// - Complexity: O(1) to make and copy.
/// - Note: Isolation: a `Sendable` value; any isolation.
public struct FeatureFlags: Sendable, Hashable {
  /// The user chose to work offline: nothing is sent to the server.
  public var isOfflineMode = false
  /// Switches without a dedicated field, by name.
  public var others: [String: Bool] = [:]

  /// Makes the default flags.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// The names of the dedicated switches.
  public static let known = ["offlineMode"]

  /// The switch named `name` (false when never set).
  ///
  /// - Complexity: O(1).
  public subscript(name: String) -> Bool {
    get { name == "offlineMode" ? isOfflineMode : others[name] ?? false }
    set {
      if name == "offlineMode" { isOfflineMode = newValue } else { others[name] = newValue }
    }
  }
}
