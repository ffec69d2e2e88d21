// weft-peer-bench: WeftCore synchronous fan-out against OpenCombine's PassthroughSubject and
// @Published, with the plain closure loop as the floor, interleaved in one run.
import Foundation
import OpenCombine
import Synchronization
import WeftCore

final class Sink: Sendable {
  let last = Atomic<Int>(0)
  @inline(__always) func take(_ value: Int) { last.store(value, ordering: .relaxed) }
}

struct Counter: Sendable, Equatable { var value = 0 }

final class PublishedModel {
  @OpenCombine.Published var value = 0
}

func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

@MainActor
func measure(subscribers n: Int, rounds: Int) {
  let commits = max(2, 1_000_000 / n)
  let sinks = (0..<n).map { _ in Sink() }

  let closures: [(Int) -> Void] = sinks.map { sink in { sink.take($0) } }

  let cell = StateCell(Counter(), name: "peer.weft")
  let tokens = sinks.map { sink in cell.observeSynchronously(\.value) { sink.take($0.value) } }

  let subject = PassthroughSubject<Int, Never>()
  let subjectTokens = sinks.map { sink in subject.sink { sink.take($0) } }

  let model = PublishedModel()
  let publishedTokens = sinks.map { sink in model.$value.dropFirst().sink { sink.take($0) } }

  var results: [String: [Double]] = [:]
  var next = 1
  for _ in 0..<rounds {
    let scenarios: [(String, (Int) -> Void)] = [
      ("closure loop (floor)", { value in for closure in closures { closure(value) } }),
      ("WeftCore synchronous", { value in cell.update { $0.value = value } }),
      ("OpenCombine PassthroughSubject", { value in subject.send(value) }),
      ("OpenCombine @Published", { value in model.value = value }),
    ]
    for (name, commit) in scenarios {
      let start = nanoseconds()
      for value in next..<(next + commits) { commit(value) }
      let elapsed = Double(nanoseconds() - start) / Double(commits * n)
      next += commits
      results[name, default: []].append(elapsed)
      precondition(sinks.allSatisfy { $0.last.load(ordering: .relaxed) == next - 1 }, name)
    }
  }
  let floor = median(results["closure loop (floor)"]!)
  for name in [
    "closure loop (floor)", "WeftCore synchronous", "OpenCombine PassthroughSubject",
    "OpenCombine @Published",
  ] {
    let perDelivery = median(results[name]!)
    print(
      String(repeating: " ", count: max(0, 8 - "\(n)".count)) + "\(n)  "
        + name.padding(toLength: 34, withPad: " ", startingAt: 0)
        + String(format: "%10.1f ns/delivery %8.2f× floor", perDelivery, perDelivery / floor))
  }
  withExtendedLifetime((tokens, subjectTokens, publishedTokens)) {}
}

print("# WeftCore vs OpenCombine 0.14.0 (release build, wall time, median of 5 interleaved rounds)")
print("# reproduce: swift run -c release --package-path Tools/PeerBenchmarks weft-peer-bench")
for n in [1, 10, 100, 1_000, 10_000, 100_000] {
  measure(subscribers: n, rounds: 5)
}
