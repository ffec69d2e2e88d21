import WeftCore
import WeftDependencies
import WeftFeedback

extension TestStore {
  /// A test store that reports its failures to the running test — Swift Testing's
  /// `Issue.record` at the failing step's own line (a `send` or `receive` that did not match,
  /// a `finish()` with work left), or XCTest's `XCTFail` — with no adapter to write.
  ///
  /// ```swift
  /// import WeftTesting
  ///
  /// @MainActor @Test func loginSucceeds() async {
  ///   let store = TestStore(initial: Auth.State.idle, reduce: Auth.reduce,
  ///                         feedbacks: Auth.feedbacks(api: backend.api, logouts: logouts))
  ///   store.send(.action(.login(username: "ada", password: "pw"))) { … }
  ///   await store.finish()
  /// }
  /// ```
  ///
  /// - Parameters: as `init(initial:reduce:feedbacks:exhaustivity:timeout:clock:dependencies:…:failure:)`.
  /// - Complexity: as that initializer.
  /// - Note: Isolation: MainActor, like the store.
  public convenience init(
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(2),
    clock: TestClock? = nil,
    dependencies update: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.init(
      initial: initial, reduce: reduce, feedbacks: feedbacks, exhaustivity: exhaustivity,
      timeout: timeout, clock: clock, dependencies: update, fileID: fileID, filePath: filePath,
      line: line, column: column,
      failure: { failure in
        IssueReporting.report(failure.message, at: failure.location)
      })
  }
}
