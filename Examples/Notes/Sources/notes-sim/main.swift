// notes-sim: Weft's simulator engine + the Notes app's plug-in. Usage: `notes-sim --help`.
import Foundation
import NotesSimulator
import SimulatorKit

exit(await Simulator.main(Array(CommandLine.arguments.dropFirst()), plugin: NotesSimulation.plugin))
