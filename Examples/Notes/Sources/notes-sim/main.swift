// notes-sim: Weft's simulator engine + the Notes app's plug-in, on the deterministic runtime.
// Usage: `notes-sim --help`.
import NotesSimulator
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: NotesSimulation.plugin)
