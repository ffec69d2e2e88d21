import Foundation

/// What `weft-sim` was asked to do, parsed from its arguments.
///
/// ```
/// weft-sim [run] FLOW [--seed N] [--explain] [--json] [--html FILE] [--trace FILE]
///                     [--deterministic] [--no-progress]
/// weft-sim sweep FLOW --views 1,10,100,1k,10k,100k,1M [--json] [--html FILE]
/// weft-sim gate [FLOW ...] [--thresholds FILE] [--update]
/// weft-sim check FLOW ...
/// ```
public enum SimulatorCommand: Sendable, Equatable {
  case run(RunArguments)
  case sweep(SweepArguments)
  case gate(GateArguments)
  case check([String])
  case help
}

/// Options of `weft-sim run`.
public struct RunArguments: Sendable, Equatable {
  public var flow: String
  public var seed: UInt64?
  public var explain = false
  public var json = false
  public var html: String?
  public var trace: String?
  /// Hold MainActor deliveries until the end of each step (exact, repeatable counts).
  public var deterministic = false
  public var progress = true

  public init(flow: String) { self.flow = flow }
}

/// Options of `weft-sim sweep`.
public struct SweepArguments: Sendable, Equatable {
  public var flow: String
  public var views: [Int]
  public var json = false
  public var html: String?
  public var progress = true

  public init(flow: String, views: [Int]) {
    self.flow = flow
    self.views = views
  }
}

/// Options of `weft-sim gate`.
public struct GateArguments: Sendable, Equatable {
  public var flows: [String] = []
  public var thresholds = "Gates/thresholds.json"
  public var update = false
  public var json = false

  public init() {}
}

/// A usage error: the message and the usage text; `weft-sim` exits with 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { "error: \(message)\n\n\(SimulatorCommand.usage)" }
}

extension SimulatorCommand {
  /// The usage text printed by `--help` and after a usage error.
  public static let usage = """
    usage: weft-sim [run] FLOW [--seed N] [--explain] [--json] [--html FILE] [--trace FILE]
                               [--deterministic] [--no-progress]
           weft-sim sweep FLOW --views 1,10,100,1k,10k,100k,1M [--json] [--html FILE]
           weft-sim gate [FLOW ...] [--thresholds FILE] [--update] [--json]
           weft-sim check FLOW ...

    Runs a scripted user flow against the app built with simulated dependencies and reports,
    per step, time, commits, deliveries, views re-rendered and skipped, MainActor jobs, SQL
    statements, allocations and commit-to-render latency.

      --explain        group each step's re-renders by cause (selector and commit)
      --json           print the report as JSON (schema: docs/simulator-report.md)
      --html FILE      write a self-contained HTML report with charts
      --trace FILE     write the state trace (one line per step)
      --deterministic  deliver to views once per step (exact, repeatable counts)
      --views LIST     sizes for sweep; k and M suffixes allowed
      --thresholds F   the gate's thresholds file (default Gates/thresholds.json)
      --update         rewrite the thresholds from this run

    Exit codes: 0 ok, 1 expectation or regression failure, 2 usage or flow error.
    """

  /// Parses `arguments` (without the program name).
  ///
  /// - Throws: `UsageError` naming the bad argument.
  public static func parse(_ arguments: [String]) throws(UsageError) -> SimulatorCommand {
    var rest = arguments[...]
    if rest.isEmpty || rest.contains("--help") || rest.contains("-h") { return .help }
    let verb = rest.first!
    switch verb {
    case "sweep":
      rest = rest.dropFirst()
      return .sweep(try parseSweep(&rest))
    case "gate":
      rest = rest.dropFirst()
      return .gate(try parseGate(&rest))
    case "check":
      let files = Array(rest.dropFirst())
      guard !files.isEmpty else { throw UsageError("check needs at least one flow file") }
      if let option = files.first(where: { $0.hasPrefix("-") }) {
        throw UsageError("unknown option '\(option)' for check")
      }
      return .check(files)
    case "run":
      rest = rest.dropFirst()
      return .run(try parseRun(&rest))
    default:
      return .run(try parseRun(&rest))
    }
  }

  private static func parseRun(_ rest: inout ArraySlice<String>) throws(UsageError) -> RunArguments
  {
    var flow: String?
    var run = RunArguments(flow: "")
    while let argument = rest.popFirst() {
      switch argument {
      case "--seed":
        let text = try value(after: argument, in: &rest)
        guard let seed = UInt64(text) else {
          throw UsageError("--seed needs a whole number, got '\(text)'")
        }
        run.seed = seed
      case "--explain": run.explain = true
      case "--json": run.json = true
      case "--html": run.html = try value(after: argument, in: &rest)
      case "--trace": run.trace = try value(after: argument, in: &rest)
      case "--deterministic": run.deterministic = true
      case "--no-progress": run.progress = false
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: "run") }
        guard flow == nil else {
          throw UsageError("run takes one flow file, got '\(argument)' too")
        }
        flow = argument
      }
    }
    guard let flow else { throw UsageError("no flow file given") }
    run.flow = flow
    return run
  }

  private static func parseSweep(
    _ rest: inout ArraySlice<String>
  ) throws(UsageError)
    -> SweepArguments
  {
    var flow: String?
    var sizes: [Int]?
    var json = false
    var html: String?
    var progress = true
    while let argument = rest.popFirst() {
      switch argument {
      case "--views": sizes = try parseSizes(try value(after: argument, in: &rest))
      case "--json": json = true
      case "--html": html = try value(after: argument, in: &rest)
      case "--no-progress": progress = false
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: "sweep") }
        guard flow == nil else {
          throw UsageError("sweep takes one flow file, got '\(argument)' too")
        }
        flow = argument
      }
    }
    guard let flow else { throw UsageError("sweep needs a flow file") }
    var sweep = SweepArguments(flow: flow, views: sizes ?? [1, 10, 100, 1_000, 10_000, 100_000])
    sweep.json = json
    sweep.html = html
    sweep.progress = progress
    return sweep
  }

  private static func parseGate(
    _ rest: inout ArraySlice<String>
  ) throws(UsageError)
    -> GateArguments
  {
    var gate = GateArguments()
    while let argument = rest.popFirst() {
      switch argument {
      case "--thresholds": gate.thresholds = try value(after: argument, in: &rest)
      case "--update": gate.update = true
      case "--json": gate.json = true
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: "gate") }
        gate.flows.append(argument)
      }
    }
    return gate
  }

  /// Parses `1,10,1k,1M` into sizes.
  static func parseSizes(_ text: String) throws(UsageError) -> [Int] {
    var sizes: [Int] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      var digits = part.trimmingCharacters(in: .whitespaces).lowercased()
      var scale = 1
      if digits.hasSuffix("k") {
        scale = 1_000
        digits.removeLast()
      } else if digits.hasSuffix("m") {
        scale = 1_000_000
        digits.removeLast()
      }
      guard let number = Int(digits), number > 0, number <= 10_000_000 / scale else {
        throw UsageError(
          "--views takes sizes like 1,10,100,1k,10k,100k,1M (1 to 10M); '\(part)' is not one")
      }
      sizes.append(number * scale)
    }
    return sizes
  }

  private static func value(
    after option: String, in rest: inout ArraySlice<String>
  ) throws(UsageError) -> String {
    guard let value = rest.popFirst(), !value.hasPrefix("--") else {
      throw UsageError("\(option) needs a value")
    }
    return value
  }

  private static let options = [
    "--seed", "--explain", "--json", "--html", "--trace", "--deterministic", "--no-progress",
    "--views", "--thresholds", "--update", "--help",
  ]

  private static func unknownOption(_ option: String, for verb: String) -> UsageError {
    if let nearest = Suggestion.nearest(to: option, among: options) {
      return UsageError("unknown option '\(option)' for \(verb); did you mean '\(nearest.word)'?")
    }
    return UsageError("unknown option '\(option)' for \(verb)")
  }
}
