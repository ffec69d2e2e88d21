import Foundation

/// This executable run again as a child process, standard output and error captured: what the
/// determinism check and the gate measure each run of a flow in, so that a run's counts never
/// depend on what ran before it in the same process.
struct ChildRun {
  /// The child's exit status (128 + the signal's number when a signal ended it).
  var status: Int32
  /// What it wrote on standard output.
  var standard: String
  /// What it wrote on standard error.
  var error: String

  /// A failure to start or wait for the child.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Runs this executable with `arguments` (not including its own path) and waits for it.
  ///
  /// - Complexity: the child's run; its output is read from two temporary files.
  /// - Note: Isolation: blocks the calling thread until the child exits.
  static func run(_ arguments: [String]) -> Result<ChildRun, Failure> {
    let base =
      FileManager.default.temporaryDirectory.path
      + "/weft-child-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    let (outputPath, errorPath) = (base + ".out", base + ".err")
    defer {
      for path in [outputPath, errorPath] { unlink(path) }
    }
    let executable =
      FileManager.default.fileExists(atPath: "/proc/self/exe")
      ? "/proc/self/exe" : CommandLine.arguments[0]
    let status: Int32
    switch spawn(executable, [executable] + arguments, stdout: outputPath, stderr: errorPath) {
    case .success(let code): status = code
    case .failure(let failure): return .failure(failure)
    }
    // A file the child never wrote reads as empty.
    func text(_ path: String) -> String {
      FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    return .success(ChildRun(status: status, standard: text(outputPath), error: text(errorPath)))
  }

  /// Runs `path` with `arguments`, standard output and error to files; its exit status.
  static func spawn(
    _ path: String, _ arguments: [String], stdout: String, stderr: String
  ) -> Result<Int32, Failure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child = pid_t()
    let spawned = posix_spawn(&child, path, &actions, nil, argv, environ)
    guard spawned == 0 else {
      return .failure(Failure("cannot run \(path): \(String(cString: strerror(spawned)))"))
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) == -1 {
      guard errno == EINTR else { return .failure(Failure("waitpid failed: \(errno)")) }
    }
    // WIFEXITED / WEXITSTATUS: low 7 bits 0 means exited, the code in the next byte.
    return .success(status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
  }
}
