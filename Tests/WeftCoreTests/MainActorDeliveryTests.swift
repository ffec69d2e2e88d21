import Testing

@testable import WeftCore

@Suite("MainActor delivery")
@MainActor
struct MainActorDeliveryTests {
  @Test func burstIsCoalescedIntoOneJobWithTheLatestValue() async {
    let monitor = PerformanceMonitor(enabled: true)
    // The MainActor owns this cell, so the ten commits run back to back while the MainActor
    // is busy: exactly the burst a job must coalesce.
    let cell = StateCell(Profile(), name: "ProfileClient", monitor: monitor)
    var seen: [Change<Int>] = []
    let token = cell.observeOnMainActor(\.visits) { seen.append($0) }
    for _ in 0..<10 { cell.update { $0.visits += 1 } }
    cell.deliverPendingMainActorChanges()
    #expect(seen == [Change(value: 10, version: 10)])
    #expect(monitor.metrics(for: "ProfileClient")?.deliveryJobs == 1)
    token.cancel()
  }

  @Test func unchangedProjectionIsNotDelivered() async {
    let client = ProfileClient()
    var names: [String] = []
    let token = client.observeOnMainActor(\.name) { names.append($0.value) }
    await client.update { $0.visits += 1 }
    client.cell.deliverPendingMainActorChanges()
    #expect(names.isEmpty)
    await client.update { $0.name = "Ada" }
    client.cell.deliverPendingMainActorChanges()
    #expect(names == ["Ada"])
    token.cancel()
  }
}

@Suite("MainActor delivery ordering")
struct MainActorOrderingTests {
  @MainActor
  final class Log {
    var versions: [UInt64] = []
    var values: [Int] = []
  }

  @Test func mainActorSubscribersNeverSeeVersionsGoBackwards() async {
    let client = ProfileClient()
    let log = Log()
    let token = client.observeOnMainActor(\.visits) { change in
      log.versions.append(change.version)
      log.values.append(change.value)
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<10 {
        group.addTask { for _ in 0..<100 { await client.update { $0.visits += 1 } } }
      }
    }
    await MainActor.run { client.cell.deliverPendingMainActorChanges() }
    let (versions, values) = await MainActor.run { (log.versions, log.values) }
    #expect(versions == versions.sorted())
    #expect(Set(versions).count == versions.count)
    #expect(values.last == 1_000)  // the last value of the burst is never lost
    #expect(versions.last == 1_000)
    token.cancel()
  }

  @Test @MainActor func subscriberJoiningMidBurstGetsTheBurstsLastValue() {
    let cell = StateCell(Profile(), name: "midBurst")
    var early: [String] = []
    let first = cell.observeOnMainActor(\.name) { early.append($0.value) }
    cell.update { $0.name = "Z" }
    cell.deliverPendingMainActorChanges()  // MainActor subscribers last saw "Z"
    cell.update { $0.name = "A" }  // pending
    var late: [String] = []
    let second = cell.observeOnMainActor(\.name) { late.append($0.value) }  // reads "A"
    cell.update { $0.name = "Z" }  // back to what the group last delivered
    cell.deliverPendingMainActorChanges()
    #expect(late == ["Z"])
    first.cancel()
    second.cancel()
  }

  @Test @MainActor func cancelOnTheMainActorStopsAWalkInProgress() {
    let cell = StateCell(Profile(), name: "cancelWalk")
    var calls: [String] = []
    var second: StateSubscription?
    let first = cell.observeOnMainActor(\.visits) { _ in
      calls.append("first")
      second?.cancel()
    }
    second = cell.observeOnMainActor(\.visits) { _ in calls.append("second") }
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    #expect(calls == ["first"])
    first.cancel()
  }

  @Test func scheduledJobDeliversWithoutBeingAsked() async {
    let client = ProfileClient()
    let delivered = AsyncStream<Int>.makeStream()
    let token = client.observeOnMainActor(\.visits) { delivered.continuation.yield($0.value) }
    await client.update { $0.visits = 42 }
    var iterator = delivered.stream.makeAsyncIterator()
    #expect(await iterator.next() == 42)
    token.cancel()
  }
}

@Suite("Actor delivery")
struct ActorDeliveryTests {
  actor Screen {
    var values: [Int] = []
    func record(_ value: Int) { values.append(value) }
  }

  @Test func deliversIsolatedToTheGivenActor() async {
    let client = ProfileClient()
    let screen = Screen()
    let received = AsyncStream<Int>.makeStream()
    let token = client.observe(StateSelector(\.visits), on: screen) { screen, change in
      screen.record(change.value)  // isolated: no await needed
      received.continuation.yield(change.value)
    }
    await client.update { $0.visits = 5 }
    var iterator = received.stream.makeAsyncIterator()
    #expect(await iterator.next() == 5)
    #expect(await screen.values == [5])
    token.cancel()
  }
}
