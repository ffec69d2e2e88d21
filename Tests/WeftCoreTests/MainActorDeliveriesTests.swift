import Testing

@testable import WeftCore

/// Not serialized: every test owns its queue and monitor, so pausing, draining and counting
/// here never meets another test's cells (nor `MainActorDeliveries.shared`).
@Suite("MainActor delivery queue")
@MainActor
struct MainActorDeliveriesTests {
  @Test func pausedQueueHoldsChangesUntilOneDrainDeliversEveryCell() {
    let queue = MainActorDeliveries()
    let monitor = PerformanceMonitor(enabled: false, deliveries: queue)
    queue.pause()
    defer { queue.resume() }
    let first = StateCell(Profile(), name: "first", monitor: monitor)
    let second = StateCell(Profile(), name: "second", monitor: monitor)
    #expect(first.deliveries === queue && second.deliveries === queue)
    var seen: [String] = []
    let tokens = [
      first.observeOnMainActor(\.name) { seen.append("first=\($0.value)") },
      second.observeOnMainActor(\.visits) { seen.append("second=\($0.value)") },
    ]
    first.update { $0.name = "a" }
    first.update { $0.name = "b" }
    second.update { $0.visits = 3 }
    #expect(seen.isEmpty)
    #expect(queue.jobCount == 0)
    #expect(queue.drainNow())
    // The queue is this test's own: exactly one drain, for exactly these two cells.
    #expect(queue.jobCount == 1)
    #expect(seen == ["first=b", "second=3"])
    #expect(!queue.drainNow())
    #expect(queue.jobCount == 1)
    #expect(seen == ["first=b", "second=3"])
    for token in tokens { token.cancel() }
  }

  @Test func cellsUseTheSharedQueueUnlessTheirMonitorOwnsOne() {
    #expect(StateCell(Profile()).deliveries === MainActorDeliveries.shared)
    #expect(PerformanceMonitor.shared.deliveries === MainActorDeliveries.shared)
    #expect(PerformanceMonitor(enabled: true).deliveries === MainActorDeliveries.shared)
    let owned = MainActorDeliveries()
    let cell = StateCell(Profile(), monitor: PerformanceMonitor(enabled: true, deliveries: owned))
    #expect(cell.deliveries === owned)
    #expect(owned !== MainActorDeliveries.shared)
  }

  /// The isolation issue 31 asks for: two owners run in parallel, one with its queue paused
  /// throughout, and each sees only its own commits, jobs and deliveries. With the process-wide
  /// queue and monitor (as before), the paused queue would also have held back the running
  /// owner's deliveries, both cells' commits would have been counted under one "counter", and
  /// each owner's job count would have included the other's jobs.
  @Test func twoOwnersInParallelSeeOnlyTheirOwnCountsAndDeliveries() async {
    let paused = Owner()
    let running = Owner()
    let tokens = [paused.observe(), running.observe()]
    paused.deliveries.pause()
    defer { paused.deliveries.resume() }

    let a = paused.commit(1...300)
    let b = running.commit(1_001...1_200)
    await a.value
    await b.value
    // Read-your-writes: `running`'s last commit left a drain job on the MainActor's queue
    // before its task finished, so it has run by the time this MainActor test resumes.
    #expect(running.seen.withLock { $0.last } == 1_200)
    #expect(running.seen.withLock { $0.allSatisfy { $0 > 1_000 } })
    #expect(running.deliveries.jobCount >= 1)
    // `paused` delivered nothing and ran no job, whatever `running` did meanwhile.
    #expect(paused.seen.withLock { $0 }.isEmpty)
    #expect(paused.deliveries.jobCount == 0)
    #expect(paused.monitor.metrics(for: "counter")?.commits == 300)
    #expect(running.monitor.metrics(for: "counter")?.commits == 200)

    let runningJobs = running.deliveries.jobCount
    let runningSeen = running.seen.withLock { $0 }
    #expect(paused.deliveries.drainNow())
    // One drain delivered the latest value once, counted in `paused` alone.
    #expect(paused.seen.withLock { $0 } == [300])
    #expect(paused.deliveries.jobCount == 1)
    #expect(paused.monitor.metrics(for: "counter")?.mainActorDeliveries == 1)
    #expect(running.deliveries.jobCount == runningJobs)
    #expect(running.seen.withLock { $0 } == runningSeen)
    #expect(
      running.monitor.metrics(for: "counter")?.mainActorDeliveries == UInt64(runningSeen.count))

    // Resetting one owner's monitor leaves the other's counts alone.
    running.monitor.reset()
    #expect(running.monitor.metrics(for: "counter")?.commits == 0)
    #expect(paused.monitor.metrics(for: "counter")?.commits == 300)
    for token in tokens { token.cancel() }
  }
}

/// One app (or test) with its engine state, committing from its own task.
private final class Owner: Sendable {
  let deliveries = MainActorDeliveries()
  let monitor: PerformanceMonitor
  /// Both owners name their cell alike: on one shared monitor their counts would add up.
  let cell: StateCell<Profile>
  let seen = Locked<[Int]>([])

  init() {
    monitor = PerformanceMonitor(enabled: true, deliveries: deliveries)
    cell = StateCell(Profile(), name: "counter", monitor: monitor)
  }

  @MainActor func observe() -> StateSubscription {
    cell.observeOnMainActor(\.visits) { [seen] change in
      seen.withLock { $0.append(change.value) }
    }
  }

  /// Commits `values` one by one from a task of its own (the cell's one owner).
  func commit(_ values: ClosedRange<Int>) -> Task<Void, Never> {
    Task.detached { [cell] in
      for value in values {
        cell.update { $0.visits = value }
        await Task.yield()
      }
    }
  }
}
