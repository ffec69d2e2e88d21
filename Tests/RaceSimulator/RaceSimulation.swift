import SimulatorFlow
import SimulatorKit
import WeftCore
import WeftRuntime
import WeftSimulation

/// The race app under the simulator, on the deterministic runtime: settling, waits, paths
/// and counters come from `WeftAppDriver(runtime:)`.
///
/// - Note: Isolation: MainActor.
@MainActor
final class RaceSimulation: WeftSimulatedApp {
  static let category = FlowCommand.Category("races", title: "Planted races")

  /// `race-sim`'s plug-in.
  static let plugin = SimulatorPlugin(
    name: "races", executable: "race-sim",
    commands: [
      AppCommand<RaceSimulation>(
        "count.add", summary: "Increments the count in one transaction, after a little work.",
        category: category
      ) { sim, _ in await sim.app.add() },
      AppCommand<RaceSimulation>(
        "count.addAudited",
        summary: "Reads the count, awaits the audit log, writes back what it read plus one.",
        category: category
      ) { sim, _ in await sim.app.addAudited() },
      AppCommand<RaceSimulation>(
        "feed.refresh", summary: "Refreshes the feed; its answer arrives 100 ms later.",
        category: category
      ) { sim, _ in await sim.app.refresh() },
      AppCommand<RaceSimulation>(
        "order.submit", summary: "Submits the order from the button.", category: category
      ) { sim, _ in await sim.more.submit() },
      AppCommand<RaceSimulation>(
        "order.submitFromKeyboard", summary: "Submits the order from the return key.",
        category: category
      ) { sim, _ in await sim.more.submitFromKeyboard() },
      AppCommand<RaceSimulation>(
        "handshake.first", summary: "Gives the first signal, then waits for the second.",
        category: category
      ) { sim, _ in await sim.more.handshakeFirst() },
      AppCommand<RaceSimulation>(
        "handshake.second", summary: "Waits for the first signal, then gives the second.",
        category: category
      ) { sim, _ in await sim.more.handshakeSecond() },
      AppCommand<RaceSimulation>(
        "versions.publish", summary: "Writes the next version and shows it to both observers.",
        category: category
      ) { sim, _ in await sim.order.publish() },
      AppCommand<RaceSimulation>(
        "versions.publishInOrder",
        summary: "Writes the next version and shows it to both observers in one transaction.",
        category: category
      ) { sim, _ in await sim.order.publishInOrder() },
      AppCommand<RaceSimulation>(
        "accounts.transfer", summary: "Locks checking, then savings, and transfers.",
        category: category
      ) { sim, _ in await sim.order.transfer() },
      AppCommand<RaceSimulation>(
        "accounts.sweep", summary: "After a little work, locks savings, then checking.",
        category: category
      ) { sim, _ in await sim.order.sweep() },
      AppCommand<RaceSimulation>(
        "accounts.sweepInOrder", summary: "After a little work, locks checking, then savings.",
        category: category
      ) { sim, _ in await sim.order.sweepInOrder() },
      AppCommand<RaceSimulation>(
        "session.signIn",
        summary: "Signs in through a callback API that never calls back.",
        category: category
      ) { sim, _ in sim.app.signIn() },
    ],
    scheduling: .deterministic
  ) { _ in
    guard let runtime = DeterministicRuntime.current else {
      throw SimulationError("race-sim needs the deterministic runtime")
    }
    return RaceSimulation(runtime: runtime)
  }

  let app = RaceApp()
  let more = MoreRaces()
  let order = OrderRaces()
  let driver: WeftAppDriver

  init(runtime: DeterministicRuntime) {
    let cell = app.ledger.cell
    let board = more.board.cell
    let sightings = order.sightings.cell
    let paths = [
      "count": ObservablePath("count", cell: cell) { .int($0.count) },
      "feed.requested": ObservablePath("feed.requested", cell: cell) { .int($0.requested) },
      "feed.shown": ObservablePath("feed.shown", cell: cell) { .int($0.shown) },
      "session.signedIn": ObservablePath("session.signedIn", cell: cell) { .bool($0.signedIn) },
      "orders.created": ObservablePath("orders.created", cell: board) { .int($0.orders) },
      "handshakes.done": ObservablePath("handshakes.done", cell: board) { .int($0.handshakes) },
      "observers.agree": ObservablePath("observers.agree", cell: sightings) {
        .bool($0.first == $0.second)
      },
      "observers.first": ObservablePath("observers.first", cell: sightings) {
        .string($0.first.map(String.init).joined(separator: ","))
      },
      "observers.second": ObservablePath("observers.second", cell: sightings) {
        .string($0.second.map(String.init).joined(separator: ","))
      },
      "transfers.done": ObservablePath("transfers.done", cell: sightings) { .int($0.transfers) },
    ]
    driver = WeftAppDriver(runtime: runtime, paths: { paths })
  }
}
