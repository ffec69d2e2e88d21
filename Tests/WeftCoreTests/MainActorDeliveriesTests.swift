import Testing

@testable import WeftCore

@Suite("MainActor delivery queue", .serialized)
@MainActor
struct MainActorDeliveriesTests {
  @Test func pausedQueueHoldsChangesUntilOneDrainDeliversEveryCell() {
    let queue = MainActorDeliveries.shared
    queue.pause()
    defer { queue.resume() }
    let first = StateCell(Profile(), name: "first")
    let second = StateCell(Profile(), name: "second")
    var seen: [String] = []
    let tokens = [
      first.observeOnMainActor(\.name) { seen.append("first=\($0.value)") },
      second.observeOnMainActor(\.visits) { seen.append("second=\($0.value)") },
    ]
    first.update { $0.name = "a" }
    first.update { $0.name = "b" }
    second.update { $0.visits = 3 }
    #expect(seen.isEmpty)
    let jobs = queue.jobCount
    #expect(queue.drainNow())
    #expect(queue.jobCount >= jobs + 1)
    #expect(seen == ["first=b", "second=3"])
    // (Other suites may enqueue cells meanwhile; only this test's cells are checked.)
    queue.drainNow()
    #expect(seen == ["first=b", "second=3"])
    for token in tokens { token.cancel() }
  }
}
