// weft-sim: the headless app simulator = SimulatorKit's engine + the health app's plug-in.
// Argument handling only; everything else is in SimulatorKit. Usage: `weft-sim --help`.
import Foundation
import HealthSimulator
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: HealthSimulation.plugin)
