import Foundation
import WeftCore

// weft-bench: fan-out (and persistence) benchmarks, peers measured side by side in one run.
// Argument handling only here; the parsing and help text are in BenchArguments.swift.
//
//   swift run -c release --package-path Tools/Benchmarks weft-bench fanout           # fan-out
//   swift run -c release --package-path Tools/Benchmarks weft-bench fanout --quick   # smaller
//   swift run -c release --package-path Tools/Benchmarks weft-bench persistence
//   swift run -c release --package-path Tools/Benchmarks weft-bench --help

let invocation: BenchInvocation
do throws(BenchUsageError) {
  invocation = try BenchArguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  FileHandle.standardError.write(Data((error.description + "\n").utf8))
  exit(2)
}

switch invocation {
case .version:
  print(Weft.version)
case .help(let command):
  print(BenchArguments.help(command))
case .run(let command, let quick):
  #if DEBUG
  print("warning: this is a debug build; figures are meaningless. Use `swift run -c release`.")
  #endif
  switch command {
  case .fanout:
    await runFanOutReport(quick: quick)
    runObservationReport(quick: quick)
  case .fanoutSmall:
    await runSmallFanOutReport(rounds: quick ? 3 : 7, commits: quick ? 50_000 : 200_000)
  case .persistence:
    for line in try await runPersistenceBenchmark() { print(line) }
  case .websocket:
    do {
      try await runWebSocketReport(quick: quick)
    } catch {
      FileHandle.standardError.write(Data("error: \(error)\n".utf8))
      exit(1)
    }
  case .all:
    await runFanOutReport(quick: quick)
    print("")
    for line in try await runPersistenceBenchmark() { print(line) }
  case .foreach:
    await runFeedbackForEachReport(quick: quick)
  case .observation:
    runObservationReport(quick: quick)
  case .latency:
    await runHopLatencyReport(quick: quick)
  case .memoryFloor:
    runMemoryFloorReport(quick: quick)
  case .profileForEach:
    await runForEachProfile()
  case .profileCommit:
    // A hot loop for profilers: commits with one synchronous subscriber.
    let scenario = WeftSynchronous(subscribers: 1)
    scenario.run(commits: quick ? 100_000 : 2_000_000, from: 1)
  case .profileMain:
    // A hot loop for profilers: commits with one MainActor subscriber, each with its job;
    // WEFT_PROFILE_MAIN=chain runs the chain of MainActor tasks alone (what each step adds).
    let steps = quick ? 20_000 : 200_000
    if ProcessInfo.processInfo.environment["WEFT_PROFILE_MAIN"] == "chain" {
      await MainActorTaskChain(subscribers: 1).run(commits: steps, from: 1)
    } else {
      await WeftMainActorJob(subscribers: 1).run(commits: steps, from: 1)
    }
  case .profileIdle:
    // A hot loop for profilers: commits among 100,000 mostly idle subscribers.
    _ = IdleSubscribersBenchmark(total: 100_000, commits: 200_000, rounds: 3).run()
  case .websocketEchoServer:
    runNativeEchoServer()
  case .help:
    print(BenchArguments.help(nil))
  }
}
