import WeftCore
import WeftFeedback
import WeftTesting

/// A small search screen: typing a query loads results after a one-second delay; a new
/// query restarts the load; clearing cancels it.
struct Search: Sendable, Equatable {
  var query = ""
  var results: [String] = []
  var isLoading = false

  enum Event: Sendable, Equatable {
    case queryChanged(String)
    case loaded([String])
    case clear
  }

  static func reduce(_ state: inout Search, _ event: Event) {
    switch event {
    case .queryChanged(let query):
      state.query = query
      state.isLoading = !query.isEmpty
    case .loaded(let results):
      state.results = results
      state.isLoading = false
    case .clear:
      state = Search()
    }
  }

  /// What is being loaded, if anything.
  var loading: String? { isLoading ? query : nil }

  static func feedbacks(clock: any Clock<Duration>) -> [Feedback<Search, Event>] {
    [
      .lensingSkippingRepeated(state: \.loading) { query in
        do {
          try await clock.sleep(for: .seconds(1))
          return .loaded([query + "1", query + "2"])
        } catch {
          return nil  // cancelled: a newer query or a clear superseded it
        }
      }.named("search")
    ]
  }
}

/// Collects a `TestStore`'s failures instead of recording issues, so tests can pin them.
final class FailureLog: Sendable {
  private let recorder = Recorder<TestFailure>()

  var sink: @Sendable (TestFailure) -> Void { { [recorder] in recorder.append($0) } }
  var failures: [TestFailure] { recorder.values }
  var messages: [String] { recorder.values.map(\.message) }
}

extension TestStore where State == Search, Event == Search.Event {
  /// A search store whose failures go to `log`.
  static func search(
    clock: TestClock, log: FailureLog, exhaustivity: Exhaustivity = .on,
    timeout: Duration = .seconds(2),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> TestStore {
    TestStore(
      initial: Search(), reduce: Search.reduce, feedbacks: Search.feedbacks(clock: clock),
      exhaustivity: exhaustivity, timeout: timeout, fileID: fileID, filePath: filePath,
      line: line, column: column, failure: log.sink)
  }
}
