/// Holds the bearer token and refreshes it single-flight: however many requests ask for a
/// refresh of the same stale token at once, the refresh function runs once and they all get
/// its result.
///
/// ```swift
/// let tokens = TokenStore(token: saved) { stale in
///   try await authAPI.refresh(from: stale)        // returns the new access token
/// }
/// ```
///
/// > Important: A request that asks to replace a token that was already replaced gets the
/// > current token without a new refresh — a late 401 for an old token does not refresh
/// > twice.
///
/// - Complexity: O(1) per call; a refresh in flight is awaited, not repeated.
/// - Note: Isolation: an actor. The refresh runs in its own unstructured task so that a
///   cancelled caller does not cancel the refresh others are waiting on.
/// - Note: Allocations: one task per actual refresh.
public actor TokenStore {
  /// Makes a new token from the stale one (`nil` when there was none).
  public typealias Refresh = @Sendable (_ stale: String?) async throws -> String

  /// The token requests are signed with now.
  public private(set) var currentToken: String?
  /// How many times the refresh function has been called.
  public private(set) var refreshCount = 0
  private let refresh: Refresh
  private var inFlight: (stale: String?, task: Task<String, any Error>)?

  /// Makes a store holding `token`.
  public init(token: String?, refresh: @escaping Refresh) {
    self.currentToken = token
    self.refresh = refresh
  }

  /// Replaces the token (after a sign-in, or to sign out with `nil`).
  public func setToken(_ token: String?) { currentToken = token }

  /// A token newer than `stale`: the current one if it was already replaced, the result of
  /// the refresh in flight if there is one, or the result of a new refresh.
  ///
  /// - Throws: what the refresh function threw (every waiter gets the same error), or
  ///   `CancellationError` if the caller was cancelled before it started waiting. A caller
  ///   cancelled while it waits does not cancel the refresh the others share; it gets the
  ///   refresh's result when it ends.
  public func refreshedToken(replacing stale: String?) async throws -> String {
    if let currentToken, currentToken != stale { return currentToken }
    if let inFlight, inFlight.stale == stale { return try await Self.value(of: inFlight.task) }
    refreshCount += 1
    let refresh = self.refresh
    let task = Task { try await refresh(stale) }
    inFlight = (stale, task)
    defer { if inFlight?.stale == stale { inFlight = nil } }
    let token = try await Self.value(of: task)
    currentToken = token
    return token
  }

  /// The task's value, unless the caller is already cancelled.
  private static func value(of task: Task<String, any Error>) async throws -> String {
    try Task.checkCancellation()
    return try await task.value
  }
}
