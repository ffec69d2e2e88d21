import Testing

@testable import WeftPersistence

/// The reader pool's state machine, driven synchronously with plain values as waiters.
@Suite struct ReaderPoolStateTests {
  @Test func freeReadersAreHandedOutThenWaitersQueue() {
    var state = ReaderPoolState<String>(readers: 2)
    #expect(state.acquire() == 0)
    #expect(state.acquire() == 1)
    #expect(state.acquire() == nil)
    guard case .enqueued = state.wait(id: 1, waiter: "first") else {
      Issue.record("expected to wait")
      return
    }
    guard case .enqueued = state.wait(id: 2, waiter: "second") else {
      Issue.record("expected to wait")
      return
    }
    #expect(state.waiterCount == 2)
    // A released reader goes straight to the oldest waiter, never back to the free list.
    #expect(state.release(1).map { [$0.waiter, "\($0.reader)"] } == ["first", "1"])
    #expect(state.acquire() == nil)
    #expect(state.release(0).map { [$0.waiter, "\($0.reader)"] } == ["second", "0"])
    #expect(state.release(0) == nil)
    #expect(state.acquire() == 0)
  }

  @Test func aCancelledWaiterIsRemovedOnce() {
    var state = ReaderPoolState<String>(readers: 1)
    _ = state.acquire()
    _ = state.wait(id: 7, waiter: "seven")
    _ = state.wait(id: 8, waiter: "eight")
    #expect(state.cancel(id: 7) == "seven")
    #expect(state.cancel(id: 7) == nil)
    #expect(state.release(0)?.waiter == "eight")
    #expect(state.cancel(id: 8) == nil)
  }

  @Test func waitingWhenAReaderIsFreeUsesIt() {
    var state = ReaderPoolState<String>(readers: 1)
    guard case .use(0) = state.wait(id: 1, waiter: "w") else {
      Issue.record("expected the free reader")
      return
    }
  }

  @Test func closingFailsWaitersAndRefusesNewOnes() {
    var state = ReaderPoolState<String>(readers: 1)
    _ = state.acquire()
    _ = state.wait(id: 1, waiter: "a")
    _ = state.wait(id: 2, waiter: "b")
    #expect(state.close() == ["a", "b"])
    #expect(state.acquire() == nil)
    guard case .closed = state.wait(id: 3, waiter: "c") else {
      Issue.record("expected closed")
      return
    }
    #expect(state.release(0) == nil)
  }

  /// Thousands of waiters served in order, with the queue compacted as it goes.
  @Test func manyWaitersAreServedFirstComeFirstServed() {
    var state = ReaderPoolState<Int>(readers: 1)
    _ = state.acquire()
    for id in 0..<5000 { _ = state.wait(id: UInt64(id), waiter: id) }
    #expect(state.cancel(id: 2500) == 2500)
    var served: [Int] = []
    while let next = state.release(0) { served.append(next.waiter) }
    #expect(served == Array(0..<2500) + Array(2501..<5000))
    #expect(state.waiterCount == 0)
  }
}
