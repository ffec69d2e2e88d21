import WeftCore

/// A benchmark `weft-bench` can run, by the word that names it.
enum BenchCommand: String, CaseIterable, Sendable {
  case fanout, persistence, websocket, foreach, observation, latency, all
  case memoryFloor = "memory-floor"
  case fanoutSmall = "fanout-small"
  case profileCommit = "profile-commit"
  case profileIdle = "profile-idle"
  case profileForEach = "profile-foreach"
  case profileMain = "profile-main"
  case websocketEchoServer = "websocket-echo-server"
  case help
}

/// What `weft-bench` was asked to do.
///
/// ```
/// weft-bench <benchmark> [--quick]     weft-bench help [<benchmark>]
/// weft-bench <benchmark> --help        weft-bench --version
/// ```
enum BenchInvocation: Equatable, Sendable {
  case run(BenchCommand, quick: Bool)
  /// Help for one benchmark, or the overview when `nil`; printed to standard output.
  case help(BenchCommand?)
  case version
}

/// A usage error: printed to standard error with the usage lines; `weft-bench` exits 2.
struct BenchUsageError: Error, Equatable, Sendable, CustomStringConvertible {
  var message: String
  var command: BenchCommand?

  init(_ message: String, command: BenchCommand? = nil) {
    self.message = message
    self.command = command
  }

  var description: String {
    let more = command.map { "weft-bench \($0.rawValue) --help" } ?? "weft-bench --help"
    return """
      error: \(message)

      \(BenchArguments.usage(command))
        See '\(more)' for more information.
      """
  }
}

/// `weft-bench`'s argument parsing and help, in the manner of swift-argument-parser: no
/// arguments is a usage error (exit 2), `--version` prints `Weft.version`, `--help` and
/// `help <benchmark>` print help to standard output (exit 0).
enum BenchArguments {
  static let names = BenchCommand.allCases.map(\.rawValue).joined(separator: ", ")

  /// Parses `arguments` (without the program name).
  ///
  /// `--quick` without a benchmark runs `fanout` (what `.ci/run` calls).
  ///
  /// - Complexity: O(arguments).
  static func parse(_ arguments: [String]) throws(BenchUsageError) -> BenchInvocation {
    guard let first = arguments.first else {
      throw BenchUsageError("missing a benchmark (one of: \(names))")
    }
    if first == "--version" {
      guard arguments.count == 1 else {
        throw BenchUsageError("--version takes no other arguments, got '\(arguments[1])'")
      }
      return .version
    }
    if first == "--help" || first == "-h" { return .help(nil) }
    if first == "help" {
      let rest = arguments.dropFirst()
      guard let word = rest.first else { return .help(nil) }
      if word == "--help" || word == "-h" { return .help(.help) }
      guard let command = BenchCommand(rawValue: word) else {
        throw BenchUsageError("unknown benchmark '\(word)' (one of: \(names))", command: .help)
      }
      guard rest.count == 1 else {
        throw BenchUsageError("help takes one benchmark, got '\(rest.last!)' too", command: .help)
      }
      return .help(command)
    }
    var command: BenchCommand?
    var quick = false
    var wantsHelp = false
    for argument in arguments {
      switch argument {
      case "--quick": quick = true
      case "--help", "-h": wantsHelp = true
      default:
        if argument.hasPrefix("-") {
          throw BenchUsageError(
            "unknown option '\(argument)' (options: --quick, --help, --version)", command: command)
        }
        guard command == nil else {
          throw BenchUsageError(
            "one benchmark at a time, got '\(argument)' too (use 'all' for every one)",
            command: command)
        }
        guard let named = BenchCommand(rawValue: argument), named != .help else {
          throw BenchUsageError("unknown benchmark '\(argument)' (one of: \(names))")
        }
        command = named
      }
    }
    if wantsHelp { return .help(command) }
    return .run(command ?? .fanout, quick: quick)
  }

  /// The `USAGE:` lines for `command`, or the overview's when `nil`.
  static func usage(_ command: BenchCommand?) -> String {
    guard let command else {
      return """
        USAGE: weft-bench <benchmark> [--quick]
               weft-bench --version
        """
    }
    return command == .help
      ? "USAGE: weft-bench help [<benchmark>]"
      : "USAGE: weft-bench \(command.rawValue) [--quick]"
  }

  /// The help page for `command`, or the overview when `nil`.
  static func help(_ command: BenchCommand?) -> String {
    guard let command else { return overview }
    let summary =
      switch command {
      case .fanout:
        """
        Fan-out: Weft against peers at N = 1 … 100k subscribers (--quick: 1, 100, 10k), the
        cost of idle subscribers, and heap bytes per subscription. Times in ns per commit
        and per delivery.
        """
      case .persistence:
        """
        Persistence: WeftPersistence's Codable insert, fetch and observation against raw
        sqlite3 calls.
        """
      case .websocket:
        """
        WebSocket: 100,000 small text messages (--quick: 5,000) echoed one at a time over
        loopback by Weft's POSIXWebSocketTransport and by a python `websockets` client, against
        a native echo server and then python's; messages/s and p50/p99 round trip. Then
        issue 29's throughput shapes (1,000 × 64 KiB binary and text round trips, one 16 MiB
        binary message, 16 MiB of text in 256 fragments) by Weft, by the websockets client and
        as a plain TCP echo of the same bytes (the floor), median of 8 rounds with the
        clients' order rotated each round, against a native echo server
        (websocket-echo-server) and then python's; the servers are pinned to the last core
        and the clients to the others (WEFT_BENCH_PIN=0: unpinned). Then the codec: the same
        shapes framed and decoded in memory, no socket (the client's own work per message;
        WEFT_BENCH_WEBSOCKET=codec runs it alone, without python). Then a JSON feed with and
        without permessage-deflate through a counting relay (fails unless the echoes match and
        compression shrinks the bytes on the wire). Needs a python with the `websockets`
        package in WEFT_BENCH_PYTHON (default python3), e.g. a venv:
        python3 -m venv /tmp/weft-bench && /tmp/weft-bench/bin/pip install websockets.
        """
      case .foreach:
        """
        Feedback.forEach: one event changing one element among n = 10, 1,000 and 100,000
        (--quick: 10, 1,000) live element effects, set and keyed, against the same system
        without the feedback; ns per event on the host and with the effects' work, and
        malloc calls per event (counted by perf on the probe_libc:malloc uprobe, if set up).
        """
      case .observation:
        """
        Observation: N = 1, 100 and 10,000 trackers (withObservationTracking) reading through
        WeftObservation's bridge against a plain @Observable class mutated directly; ns per
        change and invalidations per change (also the last table of `fanout`).
        """
      case .fanoutSmall:
        """
        The small-N table of fanout alone: ns per commit at N = 1 and 10, synchronous, MainActor
        drained directly, MainActor with its job run on the MainActor's queue, and the yields
        that the job row includes (--quick: 50,000 commits a round, 3 rounds).
        """
      case .latency:
        """
        Commit → MainActor render while the MainActor awaits the committing actor, commits 2 ms
        apart: WeftCore (a Client's commit, an observeOnMainActor subscriber) against plain
        Swift (the actor enqueues a @MainActor task), with the other core idle and busy;
        p50 / p95 / p99 in µs per round (--quick: 2 rounds of 200 commits).
        """
      case .memoryFloor:
        """
        What this machine's memory allows a fan-out: walks of 1,000 … 1,000,000 subscribers in
        C, one flag test, one indirect call and two stores each, laid out as a WeftCore closure
        subscriber (registration, token, view), as one object per subscriber (a
        MainActorObserver), and as an 8-byte state in one array; ns per subscriber, and 1M
        against the fastest size.
        """
      case .all: "Runs fanout, then persistence."
      case .profileCommit:
        """
        A hot loop for profilers: 2,000,000 commits (--quick: 100,000) with one synchronous
        subscriber; prints nothing.
        """
      case .profileIdle:
        """
        A hot loop for profilers: 200,000 commits among 100,000 mostly idle subscribers;
        prints nothing.
        """
      case .profileForEach:
        """
        A hot loop for profilers: one forEach scenario, from WEFT_FOREACH=<set|keyed>,<0|1>,<n>,
        <events> (default set,1,1000,2000: set, with the feedback, 1,000 elements, 2,000
        events); prints nothing. `weft-bench foreach` runs it under perf stat to count mallocs.
        """
      case .profileMain:
        """
        A hot loop for profilers: 200,000 commits (--quick: 20,000) with one MainActor
        subscriber, each in its own MainActor task and followed by its delivery job; prints
        nothing. WEFT_PROFILE_MAIN=chain runs the chain of MainActor tasks alone.
        """
      case .websocketEchoServer:
        """
        The WebSocket and plain TCP echo server that `websocket` runs its throughput shapes
        against, in its own process (`websocket` starts it): prints "PORT N TCP M" and serves
        127.0.0.1 until its standard input closes. Each frame is echoed as it arrives, unmasked
        as it is copied into the reply, with no UTF-8 validation and no extension; pinned to
        the machine's last core (WEFT_BENCH_PIN=0: not pinned).
        """
      case .help: "Shows help for a benchmark (the same as `weft-bench <benchmark> --help`)."
      }
    let quick =
      switch command {
      case .fanout, .fanoutSmall, .all, .foreach, .observation, .latency:
        "  --quick           Smaller sizes and fewer rounds (for CI; noisier figures).\n"
      case .memoryFloor: "  --quick           A quarter of the rounds (noisier figures).\n"
      case .profileCommit: "  --quick           100,000 commits instead of 2,000,000.\n"
      case .profileMain: "  --quick           20,000 commits instead of 200,000.\n"
      case .websocket:
        "  --quick           5,000 messages instead of 100,000; shapes: 100 round trips, 4 MiB,\n"
          + "                    one round.\n"
      case .persistence, .profileIdle, .profileForEach, .websocketEchoServer:
        "  --quick           Accepted; has no effect on this benchmark.\n"
      case .help: ""
      }
    let options = quick + "  -h, --help        Show help information."
    return """
      OVERVIEW: \(summary)

      \(usage(command))

      OPTIONS:
      \(options)
      """
  }

  static let overview = """
    OVERVIEW: weft-bench \(Weft.version): Weft's benchmarks, peers measured side by side in one
    run. Build it in release: swift run -c release --package-path Tools/Benchmarks weft-bench …

    \(usage(nil))

    BENCHMARKS:
      fanout            Fan-out against peers, idle-subscriber cost, memory per subscription.
      fanout-small      fanout's small-N table alone (N = 1 and 10: each WeftCore path).
      persistence       Codable insert and fetch against raw sqlite3.
      websocket         WebSocket echo round trips against a python `websockets` client.
      foreach           Feedback.forEach: per-event cost and allocations at 10 … 100,000 elements.
      observation       The Observation bridge against plain @Observable (part of fanout).
      latency           Commit → MainActor render against plain Swift's actor → MainActor hop.
      memory-floor      Subscriber walks in C: what memory allows a fan-out at 1k … 1M.
      all               fanout, then persistence.
      profile-commit    A hot loop for profilers: commits with one synchronous subscriber.
      profile-idle      A hot loop for profilers: commits among 100,000 idle subscribers.
      profile-foreach   A hot loop for profilers: one forEach scenario (WEFT_FOREACH).
      profile-main      A hot loop for profilers: MainActor commits, each with its job.
      websocket-echo-server
                        The echo server `websocket` starts for its throughput shapes.
      help              Show help for a benchmark.

    OPTIONS:
      --quick           Smaller sizes and fewer rounds; alone, it runs fanout.
      --version         Print the version (\(Weft.version)) and exit.
      -h, --help        Show help information.

    EXIT CODES: 0 ok, 2 usage error.
    """
}
