/// What a screen shows while it loads something: nothing yet, a spinner, the data, or an
/// error message.
///
/// ```swift
/// switch dashboard.state.viewState {
/// case .idle, .loading: showSpinner()
/// case .success(let data): render(data)
/// case .error(let message): showError(message)
/// }
/// dashboard.state.viewState.isLoading    // true only in .loading
/// ```
///
/// - Complexity: every member is O(1).
/// - Note: Isolation: a `Sendable` value when `T` is.
/// - Note: Allocations: none of its own.
public enum ViewState<T: Sendable>: Sendable {
  /// Nothing was asked yet.
  case idle
  /// Loading, with nothing to show yet.
  case loading
  /// The data to show.
  case success(T)
  /// What went wrong, as a sentence for the person.
  case error(String)

  /// Whether the state is `.loading`.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// The data of `.success`, else `nil`.
  public var data: T? {
    if case .success(let data) = self { return data }
    return nil
  }

  /// The message of `.error`, else `nil`.
  public var errorMessage: String? {
    if case .error(let message) = self { return message }
    return nil
  }

  /// Every case's `caseName`, in declaration order.
  public static var caseNames: [String] { ["idle", "loading", "success", "error"] }

  /// `idle`, `loading`, `success` or `error`, for reports and scripts.
  public var caseName: String {
    switch self {
    case .idle: "idle"
    case .loading: "loading"
    case .success: "success"
    case .error: "error"
    }
  }
}

extension ViewState: Equatable where T: Equatable {}
extension ViewState: Hashable where T: Hashable {}
