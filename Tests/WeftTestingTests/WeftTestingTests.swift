import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// TestStore and TestClock failures reach Swift Testing at the test's own line, with no
/// adapter: each test below fails on purpose inside `withKnownIssue`, which checks where.
@Suite("WeftTesting reports to Swift Testing")
@MainActor
struct WeftTestingTests {
  enum Counter {
    static func reduce(_ state: inout Int, _ event: Int) { state += event }
  }

  @Test func aTestStoreMismatchIsAnIssueAtTheSendsLine() async {
    let store = TestStore(initial: 0, reduce: Counter.reduce, feedbacks: [])
    let expectedLine = #line + 3
    withKnownIssue {
      // The reducer adds 2; the test claims 3.
      store.send(2) { $0 = 3 }
    } matching: { issue in
      issue.sourceLocation?.line == expectedLine
        && issue.sourceLocation?.fileID.hasSuffix("WeftTestingTests.swift") == true
    }
    await store.finish()
  }

  @Test func aWaitForSleepersThatCannotEndIsAnIssueNotAHang() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.expectSleepers(count: 1))
    let expectedLine = #line + 2
    await withKnownIssue {
      _ = await clock.expectSleepers(count: 2, timeout: .milliseconds(200))
    } matching: { issue in
      issue.sourceLocation?.line == expectedLine
        && issue.comments.contains { $0.rawValue.contains("1 task sleeping (until t+1.0 seconds)") }
    }
    sleeper.cancel()
  }

  @Test func theSilentWaitSaysWhetherTheSleepersCame() async {
    let clock = TestClock()
    #expect(await !clock.sleepers(atLeast: 1, within: .milliseconds(50)))
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.sleepers(atLeast: 1, within: .seconds(10)))
    sleeper.cancel()
  }
}
