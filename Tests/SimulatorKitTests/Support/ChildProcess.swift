import Foundation
import WeftCore

/// Runs a child process to the end without blocking a thread of the cooperative pool: its
/// exit is awaited through `terminationHandler`, and its two pipes are drained by two plain
/// threads (draining both keeps a chatty child from filling a pipe and stalling). A blocking
/// `waitUntilExit()` here held one of the pool's two threads (on a 2-core machine) for a
/// whole gate run, long enough to fail the live networking tests' wall-clock bounds.
enum ChildProcess {
  struct Result {
    var status: Int32
    var standard: String
    var error: String
  }

  /// What is still awaited: the exit and both pipes' ends.
  private final class Ending: Sendable {
    private struct State {
      var pending = 3
      var standard = Data()
      var error = Data()
      var continuation: CheckedContinuation<(Data, Data), Never>?
    }
    private let state = Locked(State())

    func wait() async -> (Data, Data) {
      await withCheckedContinuation { continuation in
        let done: (Data, Data)? = state.withLock { state in
          guard state.pending > 0 else { return (state.standard, state.error) }
          state.continuation = continuation
          return nil
        }
        if let done { continuation.resume(returning: done) }
      }
    }

    func finish(standard: Data? = nil, error: Data? = nil) {
      let resume: (CheckedContinuation<(Data, Data), Never>, (Data, Data))? = state.withLock {
        state in
        if let standard { state.standard = standard }
        if let error { state.error = error }
        state.pending -= 1
        guard state.pending == 0, let continuation = state.continuation else { return nil }
        state.continuation = nil
        return (continuation, (state.standard, state.error))
      }
      if let (continuation, value) = resume { continuation.resume(returning: value) }
    }
  }

  static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil
  ) async throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let ending = Ending()
    process.terminationHandler = { _ in ending.finish() }
    try process.run()
    let outReader = out.fileHandleForReading
    let errReader = err.fileHandleForReading
    Thread { ending.finish(standard: outReader.readDataToEndOfFile()) }.start()
    Thread { ending.finish(error: errReader.readDataToEndOfFile()) }.start()
    let (standard, error) = await ending.wait()
    return Result(
      status: process.terminationStatus, standard: String(decoding: standard, as: UTF8.self),
      error: String(decoding: error, as: UTF8.self))
  }
}
