import Testing

@testable import SimulatorGate
@testable import SimulatorKit

/// The executable's name is passed in (the plug-in's `executable`, or `program:` given to
/// `Simulator.main`), and every text that names the program is built with it: the help,
/// usage errors, the gate's summary and its regenerate command. Nothing rewrites `weft-sim`
/// in finished text (issue 31 item 4).
@Suite("the program name is passed in")
@MainActor
struct ProgramNameTests {
  nonisolated static let notes = SimulatorPlugin(
    name: "notes", executable: "notes-sim", commands: FakeApp.commands
  ) { _ in FakeApp() }

  @Test func helpNamesThePlugInsExecutable() async {
    for arguments in [["--help"], ["run", "--help"], ["help", "sweep"], ["merge", "--help"]] {
      let captured = Captured()
      #expect(await Simulator.main(arguments, plugin: Self.notes, output: captured.output) == 0)
      #expect(captured.standard.contains("USAGE: notes-sim"), "\(arguments)")
      #expect(!captured.standard.contains("weft-sim"), "\(arguments)")
    }
  }

  @Test func theGatePageKeepsTheFileMarkerAndNamesTheProgram() async {
    let captured = Captured()
    #expect(
      await Simulator.main(["gate", "--help"], plugin: Self.notes, output: captured.output) == 0)
    #expect(captured.standard.contains("USAGE: notes-sim gate [<flow> ...]"))
    // `# weft-sim gate: not gated` is what a flow file says, not the program's name.
    #expect(captured.standard.contains("`# weft-sim gate: not gated`"))
    #expect(captured.standard.contains("Merge the n reports with 'notes-sim merge'."))
  }

  @Test func usageErrorsNameTheProgram() async {
    let captured = Captured()
    #expect(await Simulator.main([], plugin: Self.notes, output: captured.output) == 2)
    #expect(captured.error.contains("USAGE: notes-sim [run] <flow> [<options>]"))
    #expect(captured.error.hasSuffix("See 'notes-sim --help' for more information."))
    #expect(!captured.error.contains("weft-sim"))
  }

  @Test func anExplicitProgramNameWinsOverThePlugIns() async {
    let captured = Captured()
    #expect(
      await Simulator.main(
        ["sweep", "--help"], plugin: Self.notes, program: "my-sim", output: captured.output) == 0)
    #expect(captured.standard.contains("USAGE: my-sim sweep <flow>"))
    #expect(!captured.standard.contains("notes-sim"))
  }

  @Test func continuationLinesStayUnderTheFirstOption() {
    for program in ["weft-sim", "notes-sim", "a"] {
      let lines = SimulatorHelp.usageLine(.run, program: program).split(separator: "\n")
      let first = lines[0].range(of: "[--seed")!.lowerBound
      let column = lines[0].distance(from: lines[0].startIndex, to: first)
      for line in lines.dropFirst() {
        #expect(line.prefix { $0 == " " }.count == column, "\(program)")
      }
    }
  }

  @Test func theGateSaysWhichProgramRanIt() {
    let options = GateOptions(program: "notes-sim")
    #expect(options.updateCommand == "swift run -c release notes-sim gate --update")
    #expect(GateOptions().program == "weft-sim")
    #expect(GateOptions().updateCommand == "swift run -c release weft-sim gate --update")
  }
}
