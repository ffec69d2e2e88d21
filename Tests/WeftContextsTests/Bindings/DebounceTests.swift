import Testing
import WeftCore

@testable import WeftContexts

/// Debounced bindings on a virtual clock: only the last value of a window is written.
@Suite("Debounced bindings")
@MainActor
struct DebounceTests {
  let root = makeRoot("Debounce")
  let client = ProfileClient()
  let clock = TestClock()

  /// ```
  /// tick (100 ms)  0    1    2    3    4    5
  /// set            s    sw   swift
  /// timer          0-3  1-4  2----------5
  /// written                                swift   (one update, at t = 500 ms)
  /// ```
  @Test func onlyTheLastValueOfTheWindowIsWritten() async {
    let context = ClientContext(client: client, named: "Search", in: root)
    let query = context.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)

    query.set("s")
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(100))
    query.set("sw")
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(100))
    query.set("swift")
    await clock.waitForSleepers(count: 1)
    #expect(query.get() == "swift")  // the pending value shows at once
    #expect(client.state.query == "")

    await clock.advance(by: .milliseconds(299))
    await context.waitForWrites()  // the window is still open: nothing to wait for
    #expect(client.state.query == "")
    #expect(clock.sleeperCount == 1)

    await clock.advance(by: .milliseconds(1))
    await context.waitForWrites()
    #expect(client.state.query == "swift")
    #expect(client.cell.version == 1)  // one update for the whole burst
    #expect(query.get() == "swift")
    #expect(clock.sleeperCount == 0)
  }

  /// ```
  /// tick (100 ms)  0    1    2    3    4    5    6
  /// set            a                   b
  /// written                       a                   b
  /// ```
  @Test func separateWindowsWriteSeparately() async {
    let context = ClientContext(client: client, named: "Search", in: root)
    let query = context.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)
    query.set("a")
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(300))
    await context.waitForWrites()
    #expect(client.state.query == "a")
    await clock.advance(by: .milliseconds(100))
    query.set("b")
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(300))
    await context.waitForWrites()
    #expect(client.state.query == "b")
    #expect(client.cell.version == 2)
  }

  @Test func flushingWritesThePendingValueAtOnce() async {
    let context = ClientContext(client: client, named: "Search", in: root)
    let query = context.bind(\.query, debouncedFor: .seconds(1), clock: clock)
    query.set("now")
    await clock.waitForSleepers(count: 1)
    context.flushDebouncedWrites()
    await context.waitForWrites()
    #expect(client.state.query == "now")
    #expect(clock.sleeperCount == 0)
    #expect(client.cell.version == 1)
    await clock.advance(by: .seconds(2))
    await context.waitForWrites()
    #expect(client.cell.version == 1)  // the cancelled timer writes nothing
  }

  @Test func aReleasedContextCancelsItsTimers() async {
    let lifetimes = LifetimeTracker()
    do {
      let context = lifetimes.track(ClientContext(client: client, named: "Search", in: root))
      let query = context.bind(\.query, debouncedFor: .seconds(1), clock: clock)
      query.set("lost")
      await clock.waitForSleepers(count: 1)
    }
    #expect(lifetimes.survivors.isEmpty)
    #expect(clock.sleeperCount == 0)
    #expect(client.state.query == "")
  }
}
