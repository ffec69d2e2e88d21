import WeftCore

/// A long-lived owner of domain state that takes actions: the interface screens and other
/// services depend on, so tests can put a stub in its place.
///
/// ```swift
/// final class LoginScreen {
///   init(auth: any Service<AuthState, AuthAction>) {
///     auth.dispatch(.login(username: "ada", password: "secret"))
///     _ = auth.cell.observeOnMainActor(\.isAuthenticated) { print($0.value) }
///   }
/// }
/// ```
///
/// - Complexity: conformers say; `FeedbackService` costs what its system does per action.
/// - Note: Isolation: `Sendable`; `dispatch` and reads are callable from anywhere.
/// - Note: Allocations: conformers say.
public protocol Service<State, Action>: StateOwner {
  /// What callers may ask of it.
  associatedtype Action: Sendable

  /// The cell holding the state: read it synchronously, observe it by key path, stream it
  /// (`StateOwner`'s API).
  nonisolated var cell: StateCell<State> { get }

  /// Asks the service to act. Returns at once; the service reduces the action on its own
  /// isolation, in the order actions were dispatched from one isolation.
  func dispatch(_ action: Action)
}
