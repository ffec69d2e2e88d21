import Synchronization
import Testing

@testable import SimulatorGate
@testable import SimulatorKit
@testable import SimulatorReports

/// A CPU clock that returns scripted readings in order, so ratio tests never depend on timing.
private final class ScriptedClock: Sendable {
  private let readings: Mutex<[UInt64]>

  init(_ readings: [UInt64]) { self.readings = Mutex(readings) }

  var clock: CPUClock {
    CPUClock { [self] in
      readings.withLock { $0.isEmpty ? 0 : $0.removeFirst() }
    }
  }
}

@Suite("RatioProbe")
struct RatioProbeTests {
  @Test func interleavesRoundsAlternatingWhichSideGoesFirst() {
    // Each timing is two readings (start, end). Round 0: workload then floor; round 1: floor
    // then workload; round 2: workload then floor.
    let clock = ScriptedClock([
      0, 300, 300, 400,  // round 0: workload 300, floor 100 → 3.0
      0, 100, 100, 250,  // round 1: floor 100, workload 150 → 1.5
      0, 200, 200, 300,  // round 2: workload 200, floor 100 → 2.0
    ])
    var order: [String] = []
    let probe = RatioProbe(rounds: 3, warmupRounds: 0, clock: clock.clock)
    let measured = probe.measure(workload: { order.append("w") }, floor: { order.append("f") })
    #expect(order == ["w", "f", "f", "w", "w", "f"])
    #expect(measured.median == 2.0)
    #expect(measured.minimum == 1.5)
    #expect(measured.maximum == 3.0)
    #expect(measured.rounds == 3)
    #expect(measured.workloadNanoseconds == 200)
    #expect(measured.floorNanoseconds == 100)
    #expect(measured.spread == 0.75)
  }

  @Test func warmupRoundsRunButDoNotCount() {
    let clock = ScriptedClock([0, 900, 900, 901] + [0, 200, 200, 300])
    var calls = 0
    let probe = RatioProbe(rounds: 1, warmupRounds: 1, clock: clock.clock)
    let measured = probe.measure(workload: { calls += 1 }, floor: {})
    #expect(calls == 2)
    #expect(measured.median == 2.0)
  }

  @Test func medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    let measured = RatioMeasurement(rounds: [
      .init(workload: 100, floor: 100), .init(workload: 400, floor: 100),
      .init(workload: 200, floor: 100), .init(workload: 300, floor: 100),
    ])
    #expect(measured.median == 2.5)
    #expect(measured.workloadNanoseconds == 250)
  }

  @Test func aZeroFloorKeepsTheRatioFinite() {
    #expect(RatioMeasurement.Round(workload: 50, floor: 0).ratio == 50)
    #expect(RatioMeasurement(rounds: []).median == 1)
  }

  @Test func theRealThreadClockNeverGoesBackwards() {
    let clock = CPUClock.thread
    var previous = clock.now()
    for _ in 0..<1_000 {
      let now = clock.now()
      #expect(now >= previous)
      previous = now
    }
  }
}

@Suite("AllocationCounter")
struct AllocationCounterTests {
  @Test func neverCountsInADebugBuild() {
    // Only the weft-sim executable links CMallocCounter, and only its release build counts.
    #expect((AllocationCounter.linked != nil) == (AllocationCounter.status == .counting))
    if BuildConfiguration.current == .debug {
      #expect(AllocationCounter.status != .counting)
      #expect(AllocationCounter.linked == nil)
    }
  }

  @Test func countsTheDifferenceAroundTheBody() {
    let readings = Mutex<UInt64>(0)
    let counter = AllocationCounter { readings.withLock { $0 } }
    let (result, allocations) = counter.count { () -> Int in
      readings.withLock { $0 += 7 }
      return 42
    }
    #expect(result == 42)
    #expect(allocations == 7)
  }

  @Test func minimumKeepsTheSmallestRun() {
    let perRun: [UInt64] = [1_012, 1_000, 1_003]
    let total = Mutex<(UInt64, Int)>((0, 0))
    let counter = AllocationCounter { total.withLock { $0.0 } }
    let minimum = counter.minimum(runs: 3) {
      total.withLock { state in
        state.0 += perRun[state.1]
        state.1 += 1
      }
    }
    #expect(minimum == 1_000)
  }
}

@Suite("MemoryProbe")
struct MemoryProbeTests {
  @Test func readsResidentAndPeakMemory() throws {
    #if os(Linux)
    let resident = try #require(MemoryProbe.residentBytes())
    let peak = try #require(MemoryProbe.peakResidentBytes())
    #expect(resident > 0)
    #expect(peak >= resident)
    #endif
  }
}
