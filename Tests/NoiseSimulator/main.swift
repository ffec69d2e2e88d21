// noise-sim: an app that draws from the world behind the runtime's back — a thread of its own
// reads /dev/urandom and hands the MainActor as many jobs as the byte says — run by
// SimulatorKit on the deterministic runtime. `noise-sim FLOW --check-determinism` must find
// that two runs differ and name the job (DeterminismCheckTests).
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: NoiseSimulation.plugin)
