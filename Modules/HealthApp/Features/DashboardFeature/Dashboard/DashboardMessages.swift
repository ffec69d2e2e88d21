import WeftNetworking

/// The sentences the dashboard shows. Tests pin each one.
///
/// - Note: Isolation: stateless; any isolation.
public enum DashboardMessages {
  /// The local load failed: nothing can be shown.
  ///
  /// - Complexity: O(d), d = the error's description.
  public static func localLoadFailed(_ error: any Error) -> String {
    "Could not read the health data saved on this device (\(error)). Restart the app; if it "
      + "keeps failing, sign out and in again to rebuild the local copy."
  }

  /// A sync failed; the data saved on this device stays on screen.
  ///
  /// - Complexity: O(d), d = the error's description.
  public static func syncFailed(_ error: any Error) -> String {
    guard let error = error as? NetworkError else {
      return "Could not save the server's data on this device (\(error)). Showing the data "
        + "saved on this device; pull to refresh to try again."
    }
    let reason: String
    switch error.kind {
    case .offline:
      return "You are offline. Showing the data saved on this device; it syncs when the "
        + "network is back."
    case .timeout: reason = "the server did not answer in time"
    case .cancelled: reason = "the sync was cancelled"
    case .http(let status, _): reason = "the server answered HTTP \(status)"
    case .decoding: reason = "the server's answer was not understood"
    case .transport: reason = "the connection failed"
    case .authentication: reason = "the session expired; sign in again"
    case .encoding: reason = "the request could not be built"
    }
    return "Could not sync with the server: \(reason). Showing the data saved on this device; "
      + "pull to refresh to try again."
  }
}
