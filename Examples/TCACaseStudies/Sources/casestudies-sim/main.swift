// casestudies-sim: Weft's simulator engine + the TCA case studies' plug-in, on the
// deterministic runtime. Usage: `casestudies-sim --help`.
import CaseStudiesSimulator
import SimulatorKit

Simulator.start(Array(CommandLine.arguments.dropFirst()), plugin: CaseStudiesSimulation.plugin)
