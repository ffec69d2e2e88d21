import Foundation
import SimulatorFlow
import SimulatorKit
import WeftCore
import WeftRuntime
import WeftSimulation

/// The state the noise lands in.
struct Noise: Sendable, Equatable {
  var total = 0
  var jobs = 0
  /// What `Date()` read at the last `world.stamp`, in whole seconds since 1970.
  var date = 0
  /// Nanoseconds `ContinuousClock.now` moved between the first and the last `world.stamp`.
  var elapsed: Int64 = 0
  /// The `UUID()` the last `world.stamp` drew.
  var uuid = ""
}

/// Owns `Noise`.
actor NoiseClient: Client {
  nonisolated let cell = StateCell(Noise(), name: "Noise")
}

/// The noise app under the simulator: `noise.start` starts a thread that reads a byte of
/// /dev/urandom (not a source the runtime answers) and enqueues 1 to 256 jobs, each adding a
/// number drawn from it; the step's settle waits for the thread (announced external work).
///
/// - Note: Isolation: MainActor.
@MainActor
final class NoiseSimulation: WeftSimulatedApp {
  static let category = FlowCommand.Category("noise", title: "Noise from outside the runtime")

  /// `noise-sim`'s plug-in.
  static let plugin = SimulatorPlugin(
    name: "noise", executable: "noise-sim",
    commands: [
      AppCommand<NoiseSimulation>(
        "noise.start",
        summary: "Reads /dev/urandom on a thread and enqueues as many jobs as it says.",
        category: category
      ) { sim, _ in sim.start() },
      AppCommand<NoiseSimulation>(
        "noise.quiet", summary: "Adds one on the MainActor (deterministic).", category: category
      ) { sim, _ in await sim.quiet() },
      AppCommand<NoiseSimulation>(
        "world.stamp",
        summary: "Reads Date(), ContinuousClock.now and UUID(), as an app stamping a row does "
          + "(sources the runtime answers).",
        category: category
      ) { sim, _ in await sim.stamp() },
    ],
    scheduling: .deterministic
  ) { _ in
    guard let runtime = DeterministicRuntime.current else {
      throw SimulationError("noise-sim needs the deterministic runtime")
    }
    return NoiseSimulation(runtime: runtime)
  }

  let client: NoiseClient
  let runtime: DeterministicRuntime
  let driver: WeftAppDriver

  init(runtime: DeterministicRuntime) {
    self.runtime = runtime
    client = NoiseClient()
    let cell = client.cell
    let paths = [
      "noise.total": ObservablePath("noise.total", cell: cell) { .int($0.total) },
      "noise.jobs": ObservablePath("noise.jobs", cell: cell) { .int($0.jobs) },
      "world.date": ObservablePath("world.date", cell: cell) { .int($0.date) },
      "world.elapsed": ObservablePath("world.elapsed", cell: cell) { .int(Int($0.elapsed)) },
      "world.uuid": ObservablePath("world.uuid", cell: cell) { .string($0.uuid) },
    ]
    driver = WeftAppDriver(runtime: runtime, paths: { paths })
  }

  func quiet() async {
    await client.update { $0.total += 1 }
  }

  /// The first `world.stamp`'s `ContinuousClock` reading, for `world.elapsed`.
  private var firstStamp: ContinuousClock.Instant?

  func stamp() async {
    let (date, instant, uuid) = (Date(), ContinuousClock.now, UUID())
    let first = firstStamp ?? instant
    firstStamp = first
    let (seconds, attoseconds) = (instant - first).components
    await client.update { state in
      state.date = Int(date.timeIntervalSince1970.rounded(.down))
      state.elapsed = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
      state.uuid = uuid.uuidString
    }
  }

  func start() {
    runtime.beginExternalWork("noise thread")
    let (client, runtime) = (client, runtime)
    let thread = Thread {
      let word = Self.urandomWord()
      let count = 1 + Int(word % 256)
      let value = Int(word >> 8 & 0xFFFF_FFFF)
      for _ in 0..<count {
        Task {
          await client.update { state in
            state.total += value
            state.jobs += 1
          }
        }
      }
      runtime.endExternalWork("noise thread")
    }
    thread.start()
  }

  /// Eight bytes read from /dev/urandom with `open` and `read`: a source the runtime does not
  /// answer (0 when it cannot be read).
  nonisolated static func urandomWord() -> UInt64 {
    let descriptor = open("/dev/urandom", O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var word: UInt64 = 0
    return read(descriptor, &word, 8) == 8 ? word : 0
  }
}
