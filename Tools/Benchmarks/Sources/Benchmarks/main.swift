import Foundation

// weft-bench: fan-out (and persistence) benchmarks, peers measured side by side in one run.
//
//   swift run -c release --package-path Tools/Benchmarks weft-bench            # fan-out
//   swift run -c release --package-path Tools/Benchmarks weft-bench --quick    # smaller run
//   swift run -c release --package-path Tools/Benchmarks weft-bench persistence

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let commands = arguments.filter { !$0.hasPrefix("--") }
let command = commands.first ?? "fanout"

#if DEBUG
print("warning: this is a debug build; figures are meaningless. Use `swift run -c release`.")
#endif

switch command {
case "fanout":
  await runFanOutReport(quick: quick)
case "persistence":
  for line in try await runPersistenceBenchmark() { print(line) }
case "all":
  await runFanOutReport(quick: quick)
  print("")
  for line in try await runPersistenceBenchmark() { print(line) }
case "profile-commit":
  // A hot loop for profilers: commits with one synchronous subscriber.
  let scenario = WeftSynchronous(subscribers: 1)
  scenario.run(commits: quick ? 100_000 : 2_000_000, from: 1)
case "profile-idle":
  // A hot loop for profilers: commits among 100,000 mostly idle subscribers.
  _ = IdleSubscribersBenchmark(total: 100_000, commits: 200_000, rounds: 3).run()
default:
  print("usage: weft-bench [fanout|persistence|all] [--quick]")
  print("unknown command '\(command)'")
  exit(2)
}
