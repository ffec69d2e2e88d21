import Testing
import WeftCore
import WeftFeedback
import WeftTesting

/// A list of timers, one child feature per row: the row's reducer and feedbacks run per
/// element of an `IdentifiedArray`.
private enum Timers {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var isRunning = false
    var seconds = 0
  }

  enum RowEvent: Equatable, Sendable {
    case toggle
    case tick
    case ping
    case pong
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row> = []
  }

  enum Event: Equatable, Sendable {
    case row(id: Int, RowEvent)
    case add(Int)
    case remove(Int)
    case stopAll
  }

  static func reduceRow(_ row: inout Row, _ event: RowEvent) {
    switch event {
    case .toggle: row.isRunning.toggle()
    case .tick: row.seconds += 1
    case .ping, .pong: break
    }
  }

  static func extract(_ event: Event) -> (id: Int, event: RowEvent)? {
    if case .row(let id, let event) = event { (id, event) } else { nil }
  }

  static let reduce = Reduce.combine(
    Reduce.forEach(\State.rows, extract: extract, reduce: reduceRow),
    { state, event in
      switch event {
      case .add(let id): state.rows.append(Row(id: id))
      case .remove(let id): state.rows.remove(id: id)
      case .stopAll:
        for id in state.rows.ids { state.rows[id: id]?.isRunning = false }
      case .row: break
      }
    })

  static func rowFeedbacks(clock: TestClock) -> [Feedback<Row, RowEvent>] {
    [
      .whenBecomesTrue(state: \.isRunning) { _ in
        clock.timer(interval: .seconds(1)).map { _ in RowEvent.tick }
      }.named("timer"),
      .extracting(payload: { event -> Void? in event == .ping ? () : nil }) { _ in RowEvent.pong }
        .named("ping"),
    ]
  }

  static func feedbacks(clock: TestClock) -> [Feedback<State, Event>] {
    [
      .forEach(
        elements: \.rows, extract: extract, embed: Event.row,
        feedbacks: rowFeedbacks(clock: clock)
      ).named("rows")
    ]
  }
}

@Suite("forEach over an IdentifiedArray: a child feature per element", .timeLimit(.minutes(1)))
@MainActor
struct ElementsFeedbackTests {
  @Test func eachRowRunsItsOwnChildFeedbacksAddressedByID() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Timers.State(rows: [Timers.Row(id: 1), Timers.Row(id: 2)]),
      reduce: Timers.reduce, feedbacks: Timers.feedbacks(clock: clock), clock: clock)
    store.send(.row(id: 1, .toggle), effects: .started("rows")) {
      $0.rows[id: 1]?.isRunning = true
    }
    #expect(store.runningEffects.map(\.detail) == ["1 timer"])
    await clock.advance(by: .seconds(2))
    await store.receive(.row(id: 1, .tick)) { $0.rows[id: 1]?.seconds = 1 }
    await store.receive(.row(id: 1, .tick)) { $0.rows[id: 1]?.seconds = 2 }
    // An event-driven child feedback answers only its own row.
    store.send(.row(id: 2, .ping), effects: .started("rows"))
    await store.receive(.row(id: 2, .pong))
    // An event for a row that is not there changes nothing and starts nothing.
    store.send(.row(id: 9, .toggle), effects: .nothing)
    store.send(.row(id: 1, .toggle), effects: .cancelled("rows")) {
      $0.rows[id: 1]?.isRunning = false
    }
    await store.finish()
  }

  @Test func aParentEventThatChangesRowsReachesTheirStateDrivenFeedbacks() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Timers.State(rows: [Timers.Row(id: 1, isRunning: true), Timers.Row(id: 2)]),
      reduce: Timers.reduce, feedbacks: Timers.feedbacks(clock: clock), clock: clock)
    #expect(store.effectsAtStart == .started("rows"))  // the running row's timer
    store.send(.row(id: 2, .toggle), effects: .started("rows")) {
      $0.rows[id: 2]?.isRunning = true
    }
    #expect(store.runningEffects.map(\.detail) == ["1 timer", "2 timer"])
    // Not addressed to any row, but it stops both: both timers are cancelled.
    store.send(.stopAll, effects: .cancelled("rows", "rows")) {
      $0.rows[id: 1]?.isRunning = false
      $0.rows[id: 2]?.isRunning = false
    }
    await clock.advance(by: .seconds(3))
    #expect(store.state.rows.map(\.seconds) == [0, 0])
    await store.finish()
  }

  @Test func aRowThatLeavesCancelsOnlyItsEffectsAndOneThatComesBackStartsFresh() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Timers.State(rows: [Timers.Row(id: 1, isRunning: true)]),
      reduce: Timers.reduce, feedbacks: Timers.feedbacks(clock: clock), clock: clock)
    store.send(.add(2)) { $0.rows.append(Timers.Row(id: 2)) }
    store.send(.row(id: 2, .toggle), effects: .started("rows")) {
      $0.rows[id: 2]?.isRunning = true
    }
    store.send(.remove(1), effects: .cancelled("rows")) { $0.rows.remove(id: 1) }
    await store.system.waitForEffects(atMost: 1)  // the cancelled timer's task has ended
    #expect(store.runningEffects.map(\.detail) == ["2 timer"])
    await clock.advance(by: .seconds(1))
    await store.receive(.row(id: 2, .tick)) { $0.rows[id: 2]?.seconds = 1 }
    // Back, not running: nothing starts; toggled: a fresh timer (a fresh reactor).
    store.send(.add(1), effects: .nothing) { $0.rows.append(Timers.Row(id: 1)) }
    store.send(.row(id: 1, .toggle), effects: .started("rows")) {
      $0.rows[id: 1]?.isRunning = true
    }
    store.send(.remove(2), effects: .cancelled("rows")) { $0.rows.remove(id: 2) }
    await clock.advance(by: .seconds(1))
    await store.receive(.row(id: 1, .tick)) { $0.rows[id: 1]?.seconds = 1 }
    store.send(.remove(1), effects: .cancelled("rows")) { $0.rows.remove(id: 1) }
    await store.finish()
  }

  @Test func threeHundredRowsStartAndStopTheirChildren() async {
    let clock = TestClock()
    let rows = IdentifiedArray(uniqueElements: (0..<300).map { Timers.Row(id: $0) })
    let system = FeedbackSystem(
      initial: Timers.State(rows: rows), reduce: Timers.reduce,
      feedbacks: Timers.feedbacks(clock: clock), on: MainActor.shared)
    for id in 0..<300 { system.send(.row(id: id, .toggle)) }
    #expect(system.activeEffectCount == 300)
    system.send(.stopAll)
    await system.waitUntilIdle()
    #expect(system.activeEffectCount == 0)
    #expect(system.state.rows.allSatisfy { !$0.isRunning })
  }
}
