import WeftCore

/// `weft-sim`'s help: the overview (`weft-sim --help`), each subcommand's page
/// (`weft-sim SUBCOMMAND --help`, `weft-sim help SUBCOMMAND`) and the usage lines a usage
/// error ends with. Laid out like swift-argument-parser's: OVERVIEW, USAGE, ARGUMENTS,
/// OPTIONS, SUBCOMMANDS.
///
/// - Note: Isolation: constants; any isolation.
enum SimulatorHelp {
  /// The help page for `subcommand`, or the overview when `nil`.
  ///
  /// - Complexity: O(length of the page).
  static func text(_ subcommand: SimulatorSubcommand?, program: String) -> String {
    guard let subcommand else { return overview(program) }
    return switch subcommand {
    case .run: run(program)
    case .check: check(program)
    case .sweep: sweep(program)
    case .gate: gate(program)
    case .merge: merge(program)
    case .explore: explore(program)
    case .help: help(program)
    }
  }

  /// The `USAGE:` lines for `subcommand`, or for every subcommand when `nil`.
  ///
  /// - Complexity: O(length of the lines).
  static func usage(_ subcommand: SimulatorSubcommand?, program: String) -> String {
    guard let subcommand else { return overviewUsage(program) }
    return "USAGE: " + usageLine(subcommand, program: program)
  }

  /// The usage line of `subcommand` for `program`, continuation lines aligned under the
  /// first option.
  static func usageLine(_ subcommand: SimulatorSubcommand, program: String) -> String {
    switch subcommand {
    case .run:
      let indent = String(repeating: " ", count: program.count + 14)
      return """
        \(program) [run] <flow> [--seed <n>] [--explain] [--json] [--html <file>]
        \(indent)[--trace <file>] [--state-dir <dir>] [--deterministic]
        \(indent)[--schedule-seed <s>] [--schedule <string>] [--define <name>=<value> ...]
        \(indent)[--check-determinism] [--job-trace <file>] [--no-progress]
        """
    case .explore:
      let indent = String(repeating: " ", count: program.count + 16)
      return """
        \(program) explore <flow> [--schedules <n>] [--strategy random|pct|exhaustive]
        \(indent)[--depth <d>] [--preemptions <k>] [--shard <k>/<n>] [--verbose] [--json]
        \(indent)[--seed <n>]
        \(indent)[--define <name>=<value> ...]
        """
    case .check: return "\(program) check <flow> ..."
    case .sweep:
      return "\(program) sweep <flow> [--views <sizes>] [--json] [--html <file>] [--no-progress]"
    case .gate:
      let indent = String(repeating: " ", count: program.count + 12)
      return """
        \(program) gate [<flow> ...] [--thresholds <file>] [--update] [--shard <k>/<n>]
        \(indent)[--json]
        """
    case .merge:
      return "\(program) merge <report.json> ... [--output <file>] [--format table|json|html]"
    case .help: return "\(program) help [<subcommand>]"
    }
  }

  static func overviewUsage(_ program: String) -> String {
    """
    USAGE: \(program) [run] <flow> [<options>]
           \(program) <subcommand> [<options>]
           \(program) --version
    """
  }

  static let exitCodes = """
    EXIT CODES:
      0  ok
      1  an expectation failed, a step errored, or the gate found a regression
      2  usage or flow error (a flow error prints file:line:col and a hint), or reports
         that do not merge
    """

  static func overview(_ program: String) -> String {
    """
    OVERVIEW: \(program) \(Weft.version): runs a scripted user flow against the app built with
    simulated dependencies (a seeded in-process backend, a virtual clock, an on-disk SQLite
    database in a temporary folder) and reports, per step, time, commits, deliveries, views
    re-rendered and skipped, MainActor jobs, SQL statements, allocations and commit-to-render
    latency.

    \(overviewUsage(program))

    SUBCOMMANDS:
      run (default)     Run one flow and print its report.
      check             Parse flows without running them.
      sweep             Run one flow at several numbers of attached views.
      gate              Check the bundled flows against the committed performance thresholds
                        (--shard K/N runs one share of them, for a CI matrix).
      merge             Combine JSON reports of one kind (runs, sweeps, gate or explore
                        shards) into one.
      explore           Run one flow under many seeded schedules and report each outcome
                        (apps on the deterministic runtime).
      help              Show help for a subcommand.

    OPTIONS:
      --version         Print the version (\(Weft.version)) and exit.
      -h, --help        Show help information.

      See '\(program) help <subcommand>' for detailed help.
      The flow language: docs/simulator-language.md. The report: docs/simulator-report.md.

    \(exitCodes)
    """
  }

  static func run(_ program: String) -> String {
    """
    OVERVIEW: Run one flow and print its report (a table; JSON with --json).

    USAGE: \(usageLine(.run, program: program))

    ARGUMENTS:
      <flow>            The flow file (language: docs/simulator-language.md).

    OPTIONS:
      --seed <n>        Seed of the virtual network, clock and ids. Overrides the flow's
                        `seed` line; without either the seed is 1. The report's header
                        shows the seed the run used.
      --explain         Group each step's re-renders by cause (selector and commit).
      --json            Print the report as JSON (schema v1: docs/simulator-report.md).
      --html <file>     Also write a self-contained HTML report with charts to <file>.
      --trace <file>    Write the state trace to <file>: one line per step, numbered from 1.
      --state-dir <dir> Keep the app's on-disk state (database, simulated backend) in <dir>
                        between runs: a flow continues where the last run on <dir> stopped,
                        even one that was killed. Without it, a temporary folder is used
                        and removed.
      --deterministic   Deliver to views once per step (exact, repeatable counts).
      --check-determinism
                        Run the flow twice, each in a process of its own, and compare
                        them job by job and count by count; at the first difference, name
                        the job (task, lane, flow step) and the likely cause (a thread
                        outside the runtime, a clock or random source it does not own).
                        Exits 1 when the runs differ.
      --job-trace <file>
                        On the deterministic runtime: write every job it ran to <file>
                        (JSON: index, lane, task, runnable, virtual time, step).
      --schedule-seed <s>
                        On the deterministic runtime: run ready jobs in the order seed <s>
                        draws (what 'explore' prints to reproduce an outcome); 'arrival' or
                        0, or no option, is arrival order (schedule 0); pct:D:N:S is the
                        PCT schedule of seed S (depth D, change points among N decisions).
      --schedule <string>
                        On the deterministic runtime: replay a schedule string that
                        'explore' printed (s1:LENGTH:DEVIATIONS). Where it stops matching
                        the run (the app changed), a note says so and --schedule-seed
                        (1 by default) picks from there on.
      --define <name>=<value>
                        A flow variable, read as $<name> (repeatable). A number stays a
                        number; anything else is text. It wins over the flow's own
                        top-level `let <name> = …`, which is then its default.
      --no-progress     Never show the progress line (it shows only on a terminal, for
                        runs longer than a second, and never with --json).
      -h, --help        Show help information.

    EXAMPLES:
      \(program) Flows/login-to-sync.flow
      \(program) run Flows/forms.flow --json --seed 7
      \(program) Flows/offline-burst.flow --define submits=500

    \(exitCodes)
    """
  }

  static func explore(_ program: String) -> String {
    """
    OVERVIEW: Run one flow under N schedules of the deterministic runtime — arrival order
    (schedule 0, what 'run' uses), then seeded draws — and report each distinct outcome
    (failed expectations, final values of the flow's paths) with the schedule that
    reproduces it, and the first failing one shrunk to its fewest preemptions with a trace
    of the tasks that interleaved. Ready jobs of different actors and timers due at the
    same instant may run in any order; one actor's jobs and the MainActor's keep theirs.
    Needs an app whose plug-in runs on the runtime (SimulatorPlugin's `scheduling`).

    USAGE: \(usageLine(.explore, program: program))

    ARGUMENTS:
      <flow>            The flow file.

    OPTIONS:
      --schedules <n>   How many schedules to run: arrival order, then schedule seeds 1
                        through <n> - 1 (100). The header says how many ran per second.
      --strategy <s>    random (arrival order, then seeded draws), pct (arrival order,
                        then PCT schedules: random task priorities, --depth - 1 change
                        points) or exhaustive (every schedule with at most --preemptions
                        preemptions — choices other than going on with the task that ran
                        last — depth first, up to --schedules; says whether it covered
                        them all).
      --depth <d>       The pct strategy's bug depth (3).
      --preemptions <k> The exhaustive strategy's bound (2).
      --shard <k>/<n>   Run only the schedules whose number is k - 1 modulo n (random
                        and pct); 'merge' joins the shards' --json reports into the
                        report of one run.
      --verbose         List every path's final value per outcome, not only the paths
                        whose values differ between outcomes.
      --json            Print the outcomes as JSON (schedules, failures, final values).
      --seed <n>        The app's seed (overrides the flow's `seed` line).
      --define <name>=<value>
                        A flow variable, read as $<name> (repeatable), as for 'run'.
      -h, --help        Show help information.

    EXAMPLES:
      \(program) explore Flows/counter.flow --schedules 100
      \(program) explore Flows/counter.flow --strategy pct --schedules 200
      \(program) explore Flows/counter.flow --strategy exhaustive --preemptions 2
      \(program) run Flows/counter.flow --schedule-seed 17   (replays one outcome)

    EXIT CODES:
      0  every schedule passed
      1  some schedule failed (each failing outcome is listed with its schedule seed)
      2  usage or flow error, or the app is not on the deterministic runtime
    """
  }

  static func check(_ program: String) -> String {
    """
    OVERVIEW: Parse flows against the app's observable paths without running them.

    USAGE: \(usageLine(.check, program: program))

    ARGUMENTS:
      <flow>            A flow file; give one or more.

    OPTIONS:
      -h, --help        Show help information.

    Prints `FILE: ok (N steps)` per valid flow; each error prints file:line:col, the line
    with a caret, and the nearest valid word. Exits 2 if any flow has an error, else 0.
    """
  }

  static func sweep(_ program: String) -> String {
    """
    OVERVIEW: Run one flow at several numbers of attached views, to show how cost grows with N.

    USAGE: \(usageLine(.sweep, program: program))

    ARGUMENTS:
      <flow>            The flow file; its largest `views` group is resized so the flow
                        attaches N views in all. The flow's own `seed` is used.

    OPTIONS:
      --views <sizes>   Comma-separated sizes; k and M suffixes allowed, 1 to 10M
                        (default: 1,10,100,1k,10k,100k).
      --json            Print the report as JSON, with the sweep's points.
      --html <file>     Also write a self-contained HTML report with log-log charts.
      --no-progress     Do not print a line per size to standard error.
      -h, --help        Show help information.

    EXAMPLES:
      \(program) sweep Flows/sweep-fanout.flow --views 1,10,100,1k,10k,100k,1M

    \(exitCodes)
    """
  }

  static func gate(_ program: String) -> String {
    """
    OVERVIEW: Check flows against the committed performance thresholds (exact counts, and
    CPU-time ratios re-measured before they fail). Run it from the package root.

    USAGE: \(usageLine(.gate, program: program))

    ARGUMENTS:
      <flow>            Flows to gate (default: every Flows/*.flow not marked
                        `# weft-sim gate: not gated`). Each runs three times, deterministic.

    OPTIONS:
      --thresholds <file>
                        The thresholds file (default: Gates/thresholds.json).
      --update          Rewrite the thresholds from this run instead of checking.
      --shard <k>/<n>   Run only shard k of n (k from 1 to n): the flow files sorted by path,
                        then the fan-out ratio probe, item i (from 0) going to shard
                        i mod n + 1. The report names the shard and the flows it ran; only
                        those flows are judged. Merge the n reports with '\(program) merge'.
      --json            Print the gate report as JSON (the text goes to standard error).
      -h, --help        Show help information.

    EXAMPLES:
      \(program) gate
      \(program) gate --shard 2/4 --json > gate-2.json

    How to read and fix a failure: docs/simulator-report.md, "The performance gate".
    A CI matrix of shards and a merge job: docs/simulator.md, "Scale-out for CI".

    \(exitCodes)
    """
  }

  static func merge(_ program: String) -> String {
    """
    OVERVIEW: Combine JSON reports of one kind into one report: runs into one list of runs,
    sweeps of one flow into one sweep (the union of their sizes), the shards of one gate into
    the whole gate's verdict (failed if any shard failed).

    USAGE: \(usageLine(.merge, program: program))

    ARGUMENTS:
      <report.json>     Reports written with --json by run, sweep or gate --shard (or by an
                        earlier merge of runs). Give one or more.

    OPTIONS:
      --output <file>   Write the merged report to <file> instead of standard output.
      --format <format> table (default), json or html.
      -h, --help        Show help information.

    Refused, with the files named: reports of different kinds or schema versions, a flow
    run twice, a sweep size measured twice, sweeps of different flows or builds, and gate
    shards of different splits, flows or thresholds, the same shard twice or a missing one.

    EXAMPLES:
      \(program) merge gate-1.json gate-2.json gate-3.json gate-4.json
      \(program) merge run-*.json --format html --output runs.html

    \(exitCodes)
    """
  }

  static func help(_ program: String) -> String {
    """
    OVERVIEW: Show help for a subcommand (the same as `\(program) <subcommand> --help`).

    USAGE: \(usageLine(.help, program: program))

    ARGUMENTS:
      <subcommand>      One of: run, check, sweep, gate, merge, help. Without it, the overview.

    OPTIONS:
      -h, --help        Show help information.
    """
  }
}
