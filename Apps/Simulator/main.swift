// weft-sim: the headless app simulator. Argument handling only; everything else is in
// SimulatorKit. Usage: `weft-sim --help`.
import Foundation
import SimulatorKit

let code = await Simulator.main(Array(CommandLine.arguments.dropFirst()))
exit(code)
