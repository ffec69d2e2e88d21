// race-sim: a small app with two planted concurrency bugs, run by SimulatorKit on the
// deterministic runtime. Its flows pass in arrival order; `race-sim explore` finds both
// bugs (CI runs it, and SimulatorKitTests' ExploreTests check the outcomes).
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: RaceSimulation.plugin)
