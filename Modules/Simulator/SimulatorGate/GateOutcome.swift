/// The program that runs the gate, where the thresholds live and the command that
/// regenerates them, as the gate's messages print them.
///
/// - Note: Isolation: a value; `Sendable`.
public struct GateOptions: Sendable, Equatable {
  /// The simulator executable's name (`weft-sim`, `notes-sim`): the messages say
  /// `PROGRAM gate: passed …`, and a report records it as its `tool`.
  public var program: String
  /// The thresholds file, relative to the package root.
  public var thresholdsPath: String
  /// The one command that regenerates the thresholds.
  public var updateCommand: String

  /// Makes options; the defaults are the repository's. Without `updateCommand`, the command
  /// is `swift run -c release PROGRAM gate --update`.
  public init(
    program: String = "weft-sim", thresholdsPath: String = "Gates/thresholds.json",
    updateCommand: String? = nil
  ) {
    self.program = program
    self.thresholdsPath = thresholdsPath
    self.updateCommand = updateCommand ?? "swift run -c release \(program) gate --update"
  }
}

/// The gate's verdict: what it found, whether that fails, the thresholds regenerated from this
/// run, and the text to print.
///
/// - Note: Isolation: a value; `Sendable`.
public struct GateOutcome: Sendable, Equatable {
  /// Every finding, failures and notes, in a stable order (by flow, then metric name, counts
  /// before ratios).
  public var findings: [GateFinding]
  /// The toolchain key judged.
  public var toolchain: String
  /// Flows compared against their thresholds.
  public var flowsChecked: Int
  /// Counts compared exactly.
  public var countsChecked: Int
  /// Ratios compared.
  public var ratiosChecked: Int
  /// The thresholds with this run's measurements recorded for ``toolchain``: what
  /// `--update` writes.
  public var regenerated: GateThresholds
  /// Paths and command for the messages.
  public var options: GateOptions

  /// Makes an outcome.
  public init(
    findings: [GateFinding], toolchain: String, flowsChecked: Int, countsChecked: Int,
    ratiosChecked: Int, regenerated: GateThresholds, options: GateOptions
  ) {
    self.findings = findings
    self.toolchain = toolchain
    self.flowsChecked = flowsChecked
    self.countsChecked = countsChecked
    self.ratiosChecked = ratiosChecked
    self.regenerated = regenerated
    self.options = options
  }

  /// The findings that fail the gate.
  public var failures: [GateFinding] { findings.filter(\.isFailure) }
  /// The findings that are only notes.
  public var notes: [GateFinding] { findings.filter { !$0.isFailure } }
  /// Whether the gate passed.
  public var passed: Bool { failures.isEmpty }
  /// 0 when it passed, 1 when it found a regression or something to record.
  public var exitCode: Int32 { passed ? 0 : 1 }

  /// ``regenerated`` as the JSON text `--update` writes.
  public var regeneratedJSON: String { regenerated.jsonText }

  /// What to print: the verdict; on failure each problem with expected and actual, the one
  /// command that regenerates the thresholds, and the regenerated JSON; then any notes.
  public var text: String {
    var lines: [String] = []
    let against = "against \(options.thresholdsPath) (\(toolchain))"
    if passed {
      lines.append(
        "\(options.program) gate: passed \(against): \(Self.plural(flowsChecked, "flow")), "
          + "\(Self.plural(countsChecked, "count")) exact, "
          + "\(Self.plural(ratiosChecked, "ratio")) within tolerance")
    } else {
      lines.append(
        "\(options.program) gate: FAILED \(against): \(Self.plural(failures.count, "problem"))")
      lines += failures.map { "  " + $0.line }
    }
    if !notes.isEmpty {
      lines.append("notes")
      lines += notes.map { "  " + $0.line }
    }
    if !passed {
      lines += [
        "",
        "If the change is intended, regenerate the thresholds and commit them:",
        "  \(options.updateCommand)",
        "",
        "Regenerated \(options.thresholdsPath):",
        regeneratedJSON.hasSuffix("\n") ? String(regeneratedJSON.dropLast()) : regeneratedJSON,
      ]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
