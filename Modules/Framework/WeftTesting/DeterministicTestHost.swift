import Testing
import WeftRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a process's Swift Testing suites on WeftRuntime's deterministic runtime: every task,
/// actor hop and sleep of every test on one thread, in arrival order, on virtual time — so a
/// test can settle an app (`await DeterministicRuntime.current!.settle()`) and sleep for an
/// hour in no time, with no bookkeeping in the app.
///
/// The runtime must be installed before anything asynchronous runs, which a test process
/// started by `swift test` cannot do. So the suites live in a library target, linked into an
/// executable whose whole `main.swift` is:
///
/// ```swift
/// import WeftTesting
///
/// DeterministicTestHost.main()
/// ```
///
/// and one ordinary test runs that executable as a child process and expects it to exit 0.
/// Arguments: `--filter NAME` and `--skip NAME` (repeatable), `--parallel` (tests interleave
/// at their suspension points; serial by default, so one test's settle waits for its own
/// work only), `--verbose`, `--xunit-output PATH`, `--schedule-seed S` (an explored order of
/// ready jobs, as `weft-sim explore` uses). Exit status: Swift Testing's (0 when every test
/// passed), or 3 with one line on standard error where the runtime is unavailable (Apple
/// platforms before 26.4, another toolchain).
///
/// - Note: Isolation: call from the synchronous top level of `main.swift`; it never returns.
/// - Complexity: the suites' work.
public enum DeterministicTestHost {
  /// The exit status when the runtime cannot be installed here.
  public static let unavailableStatus: Int32 = 3

  /// Installs the runtime, runs every Swift Testing test linked into the process (as the
  /// arguments select), and exits with Swift Testing's status.
  ///
  /// - Parameter arguments: the command line, without the executable's name.
  /// - Complexity: the suites' work.
  public static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
    let options: HostOptions
    switch HostOptions.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let error):
      printError("error: \(error.message)\n\(HostOptions.usage)")
      exit(2)
    }
    guard
      DeterministicRuntime.install(scheduleSeed: options.scheduleSeed, stallSeconds: 30) != nil
    else {
      printError(
        "error: the deterministic runtime is unavailable on this platform (it needs the "
          + "Swift 6.3 executor SPI: Linux, or Apple platforms 26.4 and later)")
      exit(unavailableStatus)
    }
    Task { @MainActor in
      let status: CInt = await Testing.__swiftPMEntryPoint(passing: options.testing)
      exit(status)
    }
    DeterministicRuntime.runMainLoop()
    exit(0)
  }

  static func printError(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  }
}
