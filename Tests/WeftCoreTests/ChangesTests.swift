import Testing

@testable import WeftCore

@Suite("changes stream")
struct ChangesTests {
  @Test func startsWithTheCurrentSnapshotThenEveryCommit() async {
    let cell = StateCell(Profile(name: "zero"))
    let stream = cell.changes(buffering: .unbounded)
    cell.update { $0.name = "one" }
    cell.update { $0.name = "two" }
    var names: [String] = []
    var versions: [UInt64] = []
    for await snapshot in stream {
      names.append(snapshot.state.name)
      versions.append(snapshot.version)
      if names.count == 3 { break }
    }
    #expect(names == ["zero", "one", "two"])
    #expect(versions == [0, 1, 2])
  }

  @Test func latestBufferingKeepsOnlyTheNewestForASlowConsumer() async {
    let cell = StateCell(Profile())
    let stream = cell.changes()  // .latest
    for visit in 1...50 { cell.update { $0.visits = visit } }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first?.state.visits == 50)
    #expect(first?.version == 50)
  }

  @Test func oldestBufferingKeepsTheFirstOnes() async {
    let cell = StateCell(Profile())
    let stream = cell.changes(buffering: .oldest(3))
    for visit in 1...10 { cell.update { $0.visits = visit } }
    var iterator = stream.makeAsyncIterator()
    var seen: [Int] = []
    for _ in 0..<3 { seen.append(await iterator.next()!.state.visits) }
    #expect(seen == [0, 1, 2])
  }

  @Test func endingTheConsumerCancelsTheSubscription() async {
    let cell = StateCell(Profile())
    let consumer = Task {
      for await _ in cell.changes() {}
    }
    consumer.cancel()
    await consumer.value
    // The stream's termination cancels its registration; the next commit sees none.
    cell.update { $0.visits = 1 }
    #expect(cell.storage.withLock { $0.everyCommit == nil })
  }
}
