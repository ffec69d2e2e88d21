import Testing
import WeftCore
import WeftSimulation

@testable import WeftContexts

/// A context given the app's work tracker announces its writes and debounce timers there, so
/// the app's one settler (WeftSimulation) drives them: a debounced binding on the app's
/// `SimulationClock` is written when the app settles, with no `context.settle()`.
@Suite("Contexts under the app's settler")
@MainActor
struct ContextSettlingTests {
  let root = makeRoot("Settling")
  let client = ProfileClient()
  let testClock = TestClock()
  let tracker = WorkTracker()

  @Test func aDebouncedWriteIsDrivenByTheAppsSettler() async throws {
    let context = ClientContext(client: client, named: "Search", in: root)
    context.workTracker = tracker
    let clock = SimulationClock(testClock: testClock, tracker: tracker)
    let query = context.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)
    query.set("swift")
    #expect(tracker.status.inFlight == 1)
    try await Settler(tracker: tracker, clock: testClock).settle()
    #expect(client.state.query == "swift")
    #expect(testClock.now.offset == .milliseconds(300))
    #expect(tracker.status.isIdle)
  }

  @Test func aWriteIsWorkInFlightUntilItLanded() async throws {
    let context = ClientContext(client: client, named: "Profile", in: root)
    context.workTracker = tracker
    let name = context.bind(\.query)
    name.set("ada")
    #expect(tracker.status.inFlight == 1)
    try await Settler(tracker: tracker, clock: testClock).settle()
    #expect(client.state.query == "ada")
    #expect(tracker.status.isIdle)
  }

  @Test func withoutATrackerNothingIsAnnounced() async {
    let context = ClientContext(client: client, named: "Quiet", in: root)
    context.bind(\.query).set("x")
    #expect(tracker.status.inFlight == 0)
    await context.settle()
    #expect(client.state.query == "x")
  }
}
