import Testing
import WeftCore
import WeftFeedback

/// Events are reduced one at a time, in the order they reach the system.
@Suite("Event ordering", .timeLimit(.minutes(5)))
@MainActor
struct EventOrderingTests {
  struct Log: Sendable, Equatable {
    var events: [Int] = []
  }

  nonisolated static func reduce(_ log: inout Log, _ event: Int) { log.events.append(event) }

  @Test func eventsAreReducedInTheOrderTheyAreSent() async {
    let system = FeedbackSystem<Log, Int>(
      initial: Log(), reduce: Self.reduce, feedbacks: [], on: MainActor.shared)
    let transitions = system.eventsWithState()
    for event in 0..<100 { system.send(event) }
    #expect(system.state.events == Array(0..<100))
    system.cancel()
    var seen: [Int] = []
    for await (event, state) in transitions {
      #expect(state.events.last == event)  // each event comes with the state it produced
      seen.append(event)
    }
    #expect(seen == Array(0..<100))
  }

  @Test func eventsSentDuringAReductionAreReducedRightAfterIt() async {
    let order = Recorder<String>()
    let system = FeedbackSystem<Log, Int>(
      initial: Log(), reduce: Self.reduce,
      feedbacks: [
        .imperative { dispatch in
          { _, event in
            order.append("feedback saw \(event)")
            if event == 1 {
              dispatch(10)
              dispatch(11)
            }
          }
        }
      ], on: MainActor.shared)
    let subscription = system.cell.observeSynchronously(\.events) { change in
      order.append("cell committed \(change.value.last ?? -1)")
    }
    system.send(1)
    system.send(2)
    #expect(system.state.events == [1, 10, 11, 2])
    #expect(
      order.values == [
        "cell committed 1", "feedback saw 1",
        "cell committed 10", "feedback saw 10",
        "cell committed 11", "feedback saw 11",
        "cell committed 2", "feedback saw 2",
      ])
    subscription.cancel()
  }

  @Test func eventsFromOneIsolationKeepTheirOrderOnAnActorHost() async {
    let system = FeedbackSystem<Log, Int>(initial: Log(), reduce: Self.reduce, feedbacks: [])
    let sender = Task.detached {
      for event in 0..<1_000 { system.send(event) }
    }
    await sender.value
    await system.sendAndWait(-1)
    #expect(system.state.events == Array(0..<1_000) + [-1])
  }

  @Test func concurrentSendersEachKeepTheirOrder() async {
    let system = FeedbackSystem<Log, Int>(initial: Log(), reduce: Self.reduce, feedbacks: [])
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask {
          for index in 0..<250 { system.send(sender * 1_000 + index) }
        }
      }
    }
    await system.waitUntilIdle()
    let events = system.state.events
    #expect(events.count == 1_000)
    for sender in 0..<4 {
      let mine = events.filter { $0 / 1_000 == sender }
      #expect(mine == Array(sender * 1_000..<sender * 1_000 + 250))
    }
  }

  @Test func anEffectsEventsArriveInTheOrderItEmitsThem() async {
    let system = FeedbackSystem<Log, Int>(
      initial: Log(), reduce: Self.reduce,
      feedbacks: [
        .just {
          AsyncStream<Int> { continuation in
            for event in 1...5 { continuation.yield(event) }
            continuation.finish()
          }
        }
      ], on: MainActor.shared)
    await system.waitUntilIdle()
    #expect(system.state.events == [1, 2, 3, 4, 5])
  }

  @Test func anImperativeFeedbackCanDispatchFromItsOwnCallbacks() async {
    let system = FeedbackSystem<Log, Int>(
      initial: Log(), reduce: Self.reduce,
      feedbacks: [
        .imperative { dispatch in
          { _, event in
            guard event == 1 else { return }
            Task.detached { dispatch(2) }  // a callback from elsewhere, later
          }
        }
      ], on: MainActor.shared)
    var values = system.cell.values(of: \.events).makeAsyncIterator()
    #expect(await values.next() == [])  // the current value first
    system.send(1)
    #expect(await values.next() == [1])
    #expect(await values.next() == [1, 2])
  }

  @Test func theInitialStateReachesFeedbacksBeforeAnyEvent() async {
    let order = Recorder<String>()
    let system = FeedbackSystem<Log, Int>(
      initial: Log(), reduce: Self.reduce,
      feedbacks: [
        .lensing(state: { $0.events.isEmpty ? "initial" : nil }) { query in
          order.append("effect for \(query)")
          return nil
        }
      ],
      observingEffects: { if $0.kind == .scheduled { order.append("scheduled") } })
    system.send(1)  // from off the host: queued behind the start
    await system.sendAndWait(2)
    #expect(order.values.first == "scheduled")
    #expect(system.state.events == [1, 2])
    await system.waitUntilIdle()
  }
}
