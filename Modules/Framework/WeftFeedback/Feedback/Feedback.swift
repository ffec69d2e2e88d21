/// A side effect of a feedback system: a rule that turns states and events into effects,
/// whose events flow back into the loop.
///
/// ```swift
/// let feedbacks: [Feedback<State, Event>] = [
///   .just(effects: logouts.map { _ in .userDidLogout }),
///   .lensingSkippingRepeated(state: \.authenticatingCredentials) { credentials in
///     do { return .authenticated(try await api.authenticate(credentials)) }
///     catch { return .failed(error) }
///   }.named("authenticate"),
/// ]
/// ```
///
/// Each kind has an exact rule for when its effects start and when they are cancelled; no
/// effect is ever cancelled except by its rule or by tearing the system down:
///
/// | kind | starts | cancels |
/// |---|---|---|
/// | `just` | once, when the system starts | only at teardown |
/// | `lensing` | for every state whose query is non-nil | the previous one, at each such state; when the query becomes nil |
/// | `lensingSkippingRepeated` | when the query becomes non-nil or changes | the previous one, when the query changes or becomes nil |
/// | `whenBecomesTrue` | on a false→true edge (the initial state counts as after false) | on a true→false edge |
/// | `extracting` | for every event with a payload, concurrently | only at teardown |
/// | `forEach` | for each element that appears in the state's set | that element's, when it leaves the set |
/// | `imperative` | — (your code runs after each event) | — |
///
/// Effects are `AsyncSequence`s of events (`Failure == Never`) or `async` functions that
/// return an event (or nil for none). Errors are mapped to events by you, with `catch`:
/// the types leave no way to drop one silently.
///
/// > Important: Events an effect emits after it was cancelled are dropped, and an effect
/// > cancelled before its code began never runs at all.
///
/// - Complexity: a feedback's rule costs O(1) per reduced event, plus your query or payload
///   function and, for `lensingSkippingRepeated`, one comparison.
/// - Note: Isolation: rules, queries and payload functions run on the system's host; effect
///   code starts there, and the async functions it awaits run wherever they are isolated.
/// - Note: Allocations: one task per launched effect; none for events that launch nothing.
public struct Feedback<State: Sendable, Event: Sendable>: Sendable {
  /// The kind of rule, as written in the API (`"lensing"`, `"just"`, ...).
  public let kind: String
  /// The name given with `named(_:)`, used in activity records and test failures.
  public private(set) var name: String?
  let makeReactor: @Sendable (EventDispatch<Event>) -> Reactor<State, Event>

  init(
    kind: String, makeReactor: @escaping @Sendable (EventDispatch<Event>) -> Reactor<State, Event>
  ) {
    self.kind = kind
    self.makeReactor = makeReactor
  }

  /// The same feedback, named: activity records and test failures call its effects `name`
  /// instead of `feedbacks[i] (kind)`.
  ///
  /// ```swift
  /// .lensingSkippingRepeated(state: \.query) { await search($0) }.named("search")
  /// ```
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: a value; any.
  /// - Note: Allocations: none beyond the copy's name.
  public func named(_ name: String) -> Self {
    var copy = self
    copy.name = name
    return copy
  }

  /// The name of the feedback at `index` in a system: its given name, or
  /// `feedbacks[index] (kind)`.
  func displayName(at index: Int) -> String { name ?? "feedbacks[\(index)] (\(kind))" }
}
