// race-sim: a small app with six planted concurrency bugs, run by SimulatorKit on the
// deterministic runtime. Its flows start the racing commands with `together { ... }` and pass
// in arrival order; `race-sim explore` finds all six (controls*.flow pass every schedule;
// CI runs it, and SimulatorKitTests' ExploreTests check the outcomes). Another planted bug,
// not a race, is a lost callback (`session.signIn`): a wait on it fails naming the task
// left on its continuation (ContinuationWaiterTests).
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: RaceSimulation.plugin)
