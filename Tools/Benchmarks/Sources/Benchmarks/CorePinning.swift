import CCorePinning
import Foundation

/// Where the WebSocket benchmark's processes run: the echo servers on the machine's last
/// core, the clients (this process, and the python clients it starts) on the others — as if
/// the server were another machine. Unpinned, a round trip's time was set by where the
/// scheduler happened to put the two ends: the same plain-socket floor took 0.036–0.11 s for
/// 1,000 × 64 KiB on this 2-core machine, fastest when both ends shared a core.
///
/// Linux only (`sched_setaffinity` on every thread of a process; threads made later inherit
/// their creator's set); elsewhere, or with one core, or with `WEFT_BENCH_PIN=0`, nothing is
/// pinned.
///
/// - Complexity: O(threads of the process).
/// - Note: Isolation: any; changes only the scheduler's placement.
enum CorePinning {
  /// Whether pinning applies here.
  static var isEnabled: Bool {
    #if os(Linux)
    return ProcessInfo.processInfo.environment["WEFT_BENCH_PIN"] != "0"
      && ProcessInfo.processInfo.activeProcessorCount >= 2
    #else
    return false
    #endif
  }

  /// The servers' core: the last one.
  static var serverCores: Range<Int> {
    let count = ProcessInfo.processInfo.activeProcessorCount
    return (count - 1)..<count
  }

  /// The clients' cores: all but the last.
  static var clientCores: Range<Int> { 0..<(ProcessInfo.processInfo.activeProcessorCount - 1) }

  /// Pins every thread of process `pid` (0: this one) to `cores`; false if any could not be.
  @discardableResult
  static func pin(process pid: Int32 = 0, to cores: Range<Int>) -> Bool {
    #if os(Linux)
    guard isEnabled else { return false }
    let directory = pid == 0 ? "/proc/self/task" : "/proc/\(pid)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
      return false
    }
    var pinned = true
    for thread in threads.compactMap({ Int32($0) }) {
      pinned =
        weft_pin_thread(thread, Int32(cores.lowerBound), Int32(cores.count)) == 0 && pinned
    }
    return pinned
    #else
    return false
    #endif
  }
}
