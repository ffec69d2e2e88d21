import Foundation
import SimulatorFlow
import SimulatorGate
import WeftRuntime

/// What `weft-sim` was asked to do, parsed from its arguments.
///
/// ```
/// weft-sim [run] FLOW [--seed N] [--explain] [--json] [--html FILE] [--trace FILE]
///                     [--deterministic] [--no-progress]
/// weft-sim sweep FLOW [--views 1,10,100,1k,10k,100k,1M] [--json] [--html FILE] [--no-progress]
/// weft-sim gate [FLOW ...] [--thresholds FILE] [--update] [--shard K/N] [--json]
/// weft-sim merge REPORT.json ... [--output FILE] [--format table|json|html]
/// weft-sim check FLOW ...
/// weft-sim explore FLOW [--schedules N] [--seed N]
/// weft-sim help [SUBCOMMAND]       weft-sim SUBCOMMAND --help       weft-sim --version
/// ```
///
/// - Note: Isolation: a `Sendable` value.
enum SimulatorCommand: Sendable, Equatable {
  case run(RunArguments)
  case sweep(SweepArguments)
  case gate(GateArguments)
  case merge(MergeArguments)
  case check([String])
  case explore(ExploreArguments)
  /// Help for one subcommand, or the overview when `nil`; printed to standard output.
  case help(SimulatorSubcommand?)
  /// `--version`: print `Weft.version`.
  case version
}

/// `weft-sim`'s subcommands, by the word that names them.
///
/// - Note: Isolation: a `Sendable` value.
enum SimulatorSubcommand: String, Sendable, Equatable, CaseIterable {
  case run, check, sweep, gate, merge, explore, help
}

/// Options of `weft-sim run`.
struct RunArguments: Sendable, Equatable {
  var flow: String
  /// `--seed N`: overrides the flow's `seed` line.
  var seed: UInt64?
  var explain = false
  var json = false
  var html: String?
  var trace: String?
  /// Hold MainActor deliveries until the end of each step (exact, repeatable counts).
  var deterministic = false
  var progress = true
  /// `--state-dir DIR`: the app keeps its on-disk state there between runs (and after a
  /// kill), instead of in a temporary folder removed after the run.
  var stateDirectory: String?
  /// `--schedule-seed S`: the order of ready jobs on the deterministic runtime (what
  /// `explore` prints to reproduce a schedule); `nil` for arrival order (`0` or `arrival`).
  var scheduleSeed: UInt64?
  /// `--schedule-seed pct:DEPTH:STEPS:SEED`: the seed picks by PCT with these parameters.
  var pct: PCTPolicy.Parameters?
  /// `--schedule STRING`: a recorded schedule (`ScheduleString`) to replay; where it stops
  /// matching, `scheduleSeed` picks (schedule seed 1 when none is given).
  var schedule: String?
  /// `--define NAME=VALUE` (repeatable): flow variables, read as `$NAME`.
  var defines: [String: String] = [:]
  /// The plug-in's own options (`--NAME VALUE`, see `LaunchOption`), by name.
  var launchOptions: [String: String] = [:]
  /// `--check-determinism`: run the flow twice, each in a process of its own, and compare
  /// job by job (`DeterminismCheck`).
  var checkDeterminism = false
  /// `--job-trace FILE`: write every job the runtime ran (JSON) to FILE.
  var jobTrace: String?

  init(flow: String) { self.flow = flow }
}

/// Options of `weft-sim explore`.
struct ExploreArguments: Sendable, Equatable {
  var flow: String
  /// `--schedules N`: how many schedules to run: arrival order (schedule 0), then schedule
  /// seeds 1 through N − 1.
  var schedules = 100
  /// `--strategy`: how schedules are chosen.
  var strategy = ExploreStrategy.random
  /// `--preemptions K`: the exhaustive strategy's bound on preemptions (deviations from
  /// arrival order that do not go on with the job that ran last).
  var preemptions = 2
  /// `--depth D`: the PCT strategy's bug depth (D − 1 priority change points).
  var depth = 3
  /// `--shard K/N`: run only the schedules whose number is K − 1 modulo N (random strategy);
  /// `merge` joins the shards' `--json` reports.
  var shard: GateShard?
  /// `--verbose`: list every path's final value, not only those that differ.
  var verbose = false
  /// `--json`: print the outcomes as JSON.
  var json = false
  /// `--seed N`: overrides the flow's `seed` line (the app's seed, not the schedule's).
  var seed: UInt64?
  /// `--define NAME=VALUE` (repeatable): flow variables, read as `$NAME`.
  var defines: [String: String] = [:]
  /// The plug-in's own options (`--NAME VALUE`, see `LaunchOption`), by name.
  var launchOptions: [String: String] = [:]

  init(flow: String) { self.flow = flow }
}

/// Options of `weft-sim sweep`.
struct SweepArguments: Sendable, Equatable {
  var flow: String
  var views: [Int]
  var json = false
  var html: String?
  var progress = true

  init(flow: String, views: [Int]) {
    self.flow = flow
    self.views = views
  }
}

/// Options of `weft-sim gate`.
struct GateArguments: Sendable, Equatable {
  var flows: [String] = []
  var thresholds = "Gates/thresholds.json"
  var update = false
  /// `--shard K/N`: run only shard K's share of the flows (see ``GateShard``).
  var shard: GateShard?
  /// `--json`: print the gate report as JSON (the text goes to standard error).
  var json = false

  init() {}
}

/// Options of `weft-sim merge`.
struct MergeArguments: Sendable, Equatable {
  /// How the merged report is printed.
  enum Format: String, Sendable, Equatable, CaseIterable {
    case table, json, html
  }

  /// The JSON reports to merge, as given.
  var reports: [String]
  /// `--output FILE`: write the merged report there instead of standard output.
  var output: String?
  /// `--format`: `table` by default.
  var format = Format.table

  init(reports: [String]) { self.reports = reports }
}

/// A usage error: what is wrong, then the usage of the subcommand it concerns (or of
/// `weft-sim` as a whole); `weft-sim` prints it to standard error and exits with 2.
///
/// - Note: Isolation: a `Sendable` value.
struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  var message: String
  /// The subcommand whose usage follows the message; `nil` for the overview's.
  var subcommand: SimulatorSubcommand?

  init(_ message: String, subcommand: SimulatorSubcommand? = nil) {
    self.message = message
    self.subcommand = subcommand
  }

  /// `error: MESSAGE`, a blank line, the usage lines, and where to find more help.
  ///
  /// - Complexity: O(length of the text).
  var description: String { text(program: "weft-sim") }

  /// `error: MESSAGE`, a blank line, the usage lines of `program`, and where to find more
  /// help.
  ///
  /// - Complexity: O(length of the text).
  func text(program: String) -> String {
    let more = subcommand.map { "\(program) \($0.rawValue) --help" } ?? "\(program) --help"
    return """
      error: \(message)

      \(SimulatorHelp.usage(subcommand, program: program))
        See '\(more)' for more information.
      """
  }
}

extension SimulatorCommand {
  /// Parses `arguments` (without the program name).
  ///
  /// No arguments is a usage error (exit 2), as is a word that is neither a subcommand nor
  /// a flow file but close to a subcommand (`rnu`: "did you mean 'run'?"). `--help` or `-h`
  /// anywhere after a subcommand asks for that subcommand's help; `help SUBCOMMAND` too.
  ///
  /// - Complexity: O(arguments).
  /// - Throws: `UsageError` naming the bad argument.
  static func parse(
    _ arguments: [String], launchOptions: [LaunchOption] = []
  ) throws(UsageError) -> SimulatorCommand {
    let appOptions = launchOptions.map { "--" + $0.name }
    let arguments = splittingInlineValues(arguments)
    guard let first = arguments.first else {
      throw UsageError("missing a flow file or a subcommand")
    }
    var rest = arguments.dropFirst()
    if first == "--version" {
      guard rest.isEmpty else {
        throw UsageError("--version takes no other arguments, got '\(rest.first!)'")
      }
      return .version
    }
    if first == "--help" || first == "-h" { return .help(nil) }
    guard let subcommand = SimulatorSubcommand(rawValue: first) else {
      // The default subcommand, `run`, with a flow file first.
      if isHelp(arguments) { return .help(.run) }
      try rejectMistypedSubcommand(first)
      var all = arguments[...]
      return .run(try parseRun(&all, appOptions: appOptions))
    }
    if subcommand != .help && isHelp(rest) { return .help(subcommand) }
    switch subcommand {
    case .help:
      return try parseHelp(rest)
    case .sweep:
      return .sweep(try parseSweep(&rest))
    case .gate:
      return .gate(try parseGate(&rest))
    case .merge:
      return .merge(try parseMerge(&rest))
    case .check:
      let files = Array(rest)
      guard !files.isEmpty else {
        throw UsageError("check needs at least one flow file", subcommand: .check)
      }
      if let option = files.first(where: { $0.hasPrefix("-") }) {
        throw unknownOption(option, for: .check)
      }
      return .check(files)
    case .run:
      return .run(try parseRun(&rest, appOptions: appOptions))
    case .explore:
      return .explore(try parseExplore(&rest, appOptions: appOptions))
    }
  }

  private static func parseExplore(
    _ rest: inout ArraySlice<String>, appOptions: [String]
  ) throws(UsageError) -> ExploreArguments {
    var flow: String?
    var explore = ExploreArguments(flow: "")
    while let argument = rest.popFirst() {
      switch argument {
      case "--schedules":
        let text = try value(after: argument, in: &rest, for: .explore)
        guard let count = Int(text), (1...100_000).contains(count) else {
          throw UsageError(
            "--schedules needs a whole number from 1 to 100000, got '\(text)'",
            subcommand: .explore)
        }
        explore.schedules = count
      case "--verbose": explore.verbose = true
      case "--shard":
        explore.shard = try parseShard(try value(after: argument, in: &rest, for: .explore))
      case "--strategy":
        let text = try value(after: argument, in: &rest, for: .explore)
        guard let strategy = ExploreStrategy(rawValue: text) else {
          throw UsageError(
            "--strategy is random, pct or exhaustive, got '\(text)'", subcommand: .explore)
        }
        explore.strategy = strategy
      case "--preemptions":
        let text = try value(after: argument, in: &rest, for: .explore)
        guard let count = Int(text), (0...10).contains(count) else {
          throw UsageError(
            "--preemptions needs a whole number from 0 to 10, got '\(text)'",
            subcommand: .explore)
        }
        explore.preemptions = count
      case "--depth":
        let text = try value(after: argument, in: &rest, for: .explore)
        guard let depth = Int(text), (1...10).contains(depth) else {
          throw UsageError(
            "--depth needs a whole number from 1 to 10, got '\(text)'", subcommand: .explore)
        }
        explore.depth = depth
      case "--json": explore.json = true
      case "--seed":
        let text = try value(after: argument, in: &rest, for: .explore)
        guard let seed = UInt64(text) else {
          throw UsageError("--seed needs a whole number, got '\(text)'", subcommand: .explore)
        }
        explore.seed = seed
      case "--define":
        let (name, value) = try parseDefine(
          try value(after: argument, in: &rest, for: .explore), for: .explore)
        explore.defines[name] = value
      default:
        if appOptions.contains(argument) {
          explore.launchOptions[String(argument.dropFirst(2))] = try value(
            after: argument, in: &rest, for: .explore)
          continue
        }
        if argument.hasPrefix("-") {
          throw unknownOption(argument, for: .explore, appOptions: appOptions)
        }
        guard flow == nil else {
          throw UsageError(
            "explore takes one flow file, got '\(argument)' too", subcommand: .explore)
        }
        flow = argument
      }
    }
    guard let flow else { throw UsageError("explore needs a flow file", subcommand: .explore) }
    if let shard = explore.shard, explore.strategy == .exhaustive {
      throw UsageError(
        "--shard \(shard) splits the random strategy's schedules; the exhaustive walk runs "
          + "whole (drop --shard, or use --strategy random)", subcommand: .explore)
    }
    explore.flow = flow
    return explore
  }

  /// `NAME=VALUE` of `--define`: a flow variable's name (letters, digits and `_`, not
  /// starting with a digit), then its value (possibly empty).
  static func parseDefine(
    _ text: String, for subcommand: SimulatorSubcommand
  ) throws(UsageError) -> (String, String) {
    guard let equals = text.firstIndex(of: "=") else {
      throw UsageError(
        "--define needs NAME=VALUE, got '\(text)' (read in the flow as $NAME)",
        subcommand: subcommand)
    }
    let name = String(text[..<equals])
    guard let first = name.unicodeScalars.first, Lexer.isNameStart(first),
      name.unicodeScalars.allSatisfy(Lexer.isNameContinue)
    else {
      throw UsageError(
        "--define: '\(name)' is not a variable name (letters, digits and _, not starting "
          + "with a digit)", subcommand: subcommand)
    }
    return (name, String(text[text.index(after: equals)...]))
  }

  /// `--name=value` as `--name value`, as swift-argument-parser accepts both: an argument
  /// that starts with `--` and holds `=` is split at the first `=` (`--seed=` gives an empty
  /// value, which the option then refuses with its own message).
  ///
  /// - Complexity: O(arguments).
  static func splittingInlineValues(_ arguments: [String]) -> [String] {
    arguments.flatMap { argument -> [String] in
      guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
        return [argument]
      }
      return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
    }
  }

  private static func isHelp(_ arguments: some Sequence<String>) -> Bool {
    arguments.contains { $0 == "--help" || $0 == "-h" }
  }

  /// `help`, `help SUBCOMMAND`.
  private static func parseHelp(_ rest: ArraySlice<String>) throws(UsageError) -> SimulatorCommand {
    guard let word = rest.first else { return .help(nil) }
    if word == "--help" || word == "-h" { return .help(.help) }
    guard let subcommand = SimulatorSubcommand(rawValue: word) else {
      throw unknownSubcommand(word, subcommand: .help)
    }
    guard rest.count == 1 else {
      throw UsageError(
        "help takes one subcommand, got '\(rest.dropFirst().first!)' too", subcommand: .help)
    }
    return .help(subcommand)
  }

  /// A bare word (no `/`, no `.`) that is no file but is one edit or so from a subcommand
  /// is a mistyped subcommand, not a flow file.
  private static func rejectMistypedSubcommand(_ word: String) throws(UsageError) {
    guard !word.hasPrefix("-"), !word.contains("/"), !word.contains("."),
      Suggestion.nearest(to: word, among: SimulatorSubcommand.allCases.map(\.rawValue)) != nil,
      !FileManager.default.fileExists(atPath: word)
    else { return }
    throw unknownSubcommand(word, subcommand: nil)
  }

  private static func unknownSubcommand(
    _ word: String, subcommand: SimulatorSubcommand?
  ) -> UsageError {
    let names = SimulatorSubcommand.allCases.map(\.rawValue)
    let known = names.joined(separator: ", ")
    if let nearest = Suggestion.nearest(to: word, among: names) {
      return UsageError(
        "unknown subcommand '\(word)'; did you mean '\(nearest.word)'? (subcommands: \(known))",
        subcommand: subcommand)
    }
    return UsageError(
      "unknown subcommand '\(word)' (subcommands: \(known))", subcommand: subcommand)
  }

  private static func parseRun(
    _ rest: inout ArraySlice<String>, appOptions: [String]
  ) throws(UsageError) -> RunArguments {
    var flow: String?
    var run = RunArguments(flow: "")
    while let argument = rest.popFirst() {
      switch argument {
      case "--seed":
        let text = try value(after: argument, in: &rest, for: .run)
        guard let seed = UInt64(text) else {
          throw UsageError("--seed needs a whole number, got '\(text)'", subcommand: .run)
        }
        run.seed = seed
      case "--explain": run.explain = true
      case "--json": run.json = true
      case "--html": run.html = try value(after: argument, in: &rest, for: .run)
      case "--trace": run.trace = try value(after: argument, in: &rest, for: .run)
      case "--state-dir": run.stateDirectory = try value(after: argument, in: &rest, for: .run)
      case "--deterministic": run.deterministic = true
      case "--check-determinism": run.checkDeterminism = true
      case "--job-trace": run.jobTrace = try value(after: argument, in: &rest, for: .run)
      case "--schedule-seed":
        let text = try value(after: argument, in: &rest, for: .run)
        guard let schedule = ScheduleArgument(text) else {
          throw UsageError(
            "--schedule-seed needs a whole number, 'arrival' or pct:DEPTH:STEPS:SEED, got "
              + "'\(text)'", subcommand: .run)
        }
        run.scheduleSeed = schedule.seed
        run.pct = schedule.pct
      case "--schedule":
        run.schedule = try value(after: argument, in: &rest, for: .run)
      case "--no-progress": run.progress = false
      case "--define":
        let (name, value) = try parseDefine(
          try value(after: argument, in: &rest, for: .run), for: .run)
        run.defines[name] = value
      default:
        if appOptions.contains(argument) {
          run.launchOptions[String(argument.dropFirst(2))] = try value(
            after: argument, in: &rest, for: .run)
          continue
        }
        if argument.hasPrefix("-") {
          throw unknownOption(argument, for: .run, appOptions: appOptions)
        }
        guard flow == nil else {
          throw UsageError("run takes one flow file, got '\(argument)' too", subcommand: .run)
        }
        flow = argument
      }
    }
    guard let flow else { throw UsageError("no flow file given", subcommand: .run) }
    run.flow = flow
    return run
  }

  private static func parseSweep(
    _ rest: inout ArraySlice<String>
  ) throws(UsageError) -> SweepArguments {
    var flow: String?
    var sizes: [Int]?
    var json = false
    var html: String?
    var progress = true
    while let argument = rest.popFirst() {
      switch argument {
      case "--views": sizes = try parseSizes(try value(after: argument, in: &rest, for: .sweep))
      case "--json": json = true
      case "--html": html = try value(after: argument, in: &rest, for: .sweep)
      case "--no-progress": progress = false
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: .sweep) }
        guard flow == nil else {
          throw UsageError("sweep takes one flow file, got '\(argument)' too", subcommand: .sweep)
        }
        flow = argument
      }
    }
    guard let flow else { throw UsageError("sweep needs a flow file", subcommand: .sweep) }
    var sweep = SweepArguments(flow: flow, views: sizes ?? defaultSweepSizes)
    sweep.json = json
    sweep.html = html
    sweep.progress = progress
    return sweep
  }

  /// The sizes `sweep` runs when `--views` is not given.
  static let defaultSweepSizes = [1, 10, 100, 1_000, 10_000, 100_000]

  private static func parseGate(
    _ rest: inout ArraySlice<String>
  ) throws(UsageError) -> GateArguments {
    var gate = GateArguments()
    while let argument = rest.popFirst() {
      switch argument {
      case "--thresholds": gate.thresholds = try value(after: argument, in: &rest, for: .gate)
      case "--update": gate.update = true
      case "--json": gate.json = true
      case "--shard": gate.shard = try parseShard(try value(after: argument, in: &rest, for: .gate))
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: .gate) }
        gate.flows.append(argument)
      }
    }
    if let shard = gate.shard, gate.update {
      throw UsageError(
        "--update records every flow, so it cannot run one shard (--shard \(shard)); "
          + "run 'gate --update' without --shard",
        subcommand: .gate)
    }
    return gate
  }

  /// Parses `K/N` for `--shard`: whole numbers, `1 <= K <= N`.
  static func parseShard(_ text: String) throws(UsageError) -> GateShard {
    if let shard = GateShard(parsing: text) { return shard }
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    var hint = "such as --shard 1/4 ... --shard 4/4"
    if parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1 {
      hint =
        index < 1
        ? "shards are numbered from 1: --shard 1/\(count) ... --shard \(count)/\(count)"
        : "there are only \(count) shards: --shard 1/\(count) ... --shard \(count)/\(count)"
    }
    throw UsageError(
      "--shard takes K/N, shard K of N with 1 <= K <= N, got '\(text)' (\(hint))",
      subcommand: .gate)
  }

  private static func parseMerge(
    _ rest: inout ArraySlice<String>
  ) throws(UsageError) -> MergeArguments {
    var merge = MergeArguments(reports: [])
    while let argument = rest.popFirst() {
      switch argument {
      case "--output": merge.output = try value(after: argument, in: &rest, for: .merge)
      case "--format":
        let text = try value(after: argument, in: &rest, for: .merge)
        guard let format = MergeArguments.Format(rawValue: text) else {
          let formats = MergeArguments.Format.allCases.map(\.rawValue)
          let nearest = Suggestion.nearest(to: text, among: formats).map {
            "; did you mean '\($0.word)'?"
          }
          throw UsageError(
            "--format takes \(formats.joined(separator: ", ")), got '\(text)'\(nearest ?? "")",
            subcommand: .merge)
        }
        merge.format = format
      default:
        if argument.hasPrefix("-") { throw unknownOption(argument, for: .merge) }
        merge.reports.append(argument)
      }
    }
    guard !merge.reports.isEmpty else {
      throw UsageError(
        "merge needs the JSON reports to combine (from --json)", subcommand: .merge)
    }
    return merge
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
          "--views takes sizes like 1,10,100,1k,10k,100k,1M (1 to 10M); '\(part)' is not one",
          subcommand: .sweep)
      }
      sizes.append(number * scale)
    }
    return sizes
  }

  private static func value(
    after option: String, in rest: inout ArraySlice<String>, for subcommand: SimulatorSubcommand
  ) throws(UsageError) -> String {
    guard let value = rest.popFirst(), !value.hasPrefix("--") else {
      throw UsageError("\(option) needs a value", subcommand: subcommand)
    }
    return value
  }

  /// Each subcommand's options, for "did you mean" (only the options it accepts).
  private static func options(of subcommand: SimulatorSubcommand) -> [String] {
    switch subcommand {
    case .run:
      [
        "--seed", "--explain", "--json", "--html", "--trace", "--state-dir", "--deterministic",
        "--no-progress", "--schedule-seed", "--schedule", "--define", "--check-determinism",
        "--job-trace",
      ]
    case .explore:
      [
        "--schedules", "--strategy", "--preemptions", "--depth", "--shard", "--seed", "--define",
        "--verbose",
        "--json",
      ]
    case .sweep: ["--views", "--json", "--html", "--no-progress"]
    case .gate: ["--thresholds", "--update", "--shard", "--json"]
    case .merge: ["--output", "--format"]
    case .check, .help: []
    }
  }

  private static func unknownOption(
    _ option: String, for subcommand: SimulatorSubcommand, appOptions: [String] = []
  ) -> UsageError {
    let verb = subcommand.rawValue
    if let nearest = Suggestion.nearest(
      to: option, among: options(of: subcommand) + appOptions + ["--help"])
    {
      return UsageError(
        "unknown option '\(option)' for \(verb); did you mean '\(nearest.word)'?",
        subcommand: subcommand)
    }
    return UsageError("unknown option '\(option)' for \(verb)", subcommand: subcommand)
  }
}

/// The value of `--schedule-seed`: `arrival` or `0` for arrival order (schedule 0, what `run`
/// uses without it), a schedule seed, or `pct:DEPTH:STEPS:SEED` (a PCT schedule).
struct ScheduleArgument: Sendable, Equatable {
  /// The seed, or `nil` for arrival order.
  let seed: UInt64?
  /// PCT's parameters, when the seed picks by PCT.
  var pct: PCTPolicy.Parameters?

  /// Reads `text`; `nil` when it is neither `arrival`, a whole number nor a PCT seed.
  init?(_ text: String) {
    if let (parameters, seed) = PCTPolicy.Parameters.parse(text) {
      self.seed = seed
      pct = parameters
    } else if text == "arrival" {
      seed = nil
    } else if let number = UInt64(text) {
      seed = number == 0 ? nil : number
    } else {
      return nil
    }
  }
}

/// How `explore` chooses its schedules.
enum ExploreStrategy: String, Sendable, Equatable {
  /// Arrival order, then seeded random draws.
  case random
  /// Every distinct schedule with at most `--preemptions` preemptions, depth first, up to
  /// `--schedules` of them.
  case exhaustive
  /// Arrival order, then PCT schedules of depth `--depth` (`PCTPolicy`), seeds 1…N−1.
  case pct
}
