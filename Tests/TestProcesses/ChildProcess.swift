import Foundation

/// Runs a child process to the end without blocking a thread of the cooperative pool.
///
/// Its exit is awaited through `terminationHandler`; its output pipes are drained by plain
/// threads (draining both keeps a chatty child from filling a pipe and stalling); its input,
/// if any, is written by a plain thread too. A blocking `waitUntilExit()` or pipe read in an
/// async test holds one of the pool's threads (two on a 2-core machine), which stalls every
/// other test in the process and fails their wall-clock bounds.
///
/// - Note: Isolation: any; three short-lived threads per run.
public enum ChildProcess {
  /// How the child ended and what it printed.
  public struct Result: Sendable {
    /// The exit status, or the signal's number when `signalled`.
    public var status: Int32
    /// Whether a signal ended the child.
    public var signalled: Bool
    /// Standard output, decoded as UTF-8.
    public var standard: String
    /// Standard error, decoded as UTF-8.
    public var error: String
  }

  /// Runs `executable` with `arguments` (in `directory`, with `input` on its standard input,
  /// `PythonFixtures.directory` on `PYTHONPATH`) and returns once it has exited and both of
  /// its pipes are closed.
  ///
  /// - Throws: what `Process.run()` throws when the executable cannot be started.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil
  ) async throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = PythonFixtures.environment()
    if let directory { process.currentDirectoryURL = directory }
    let inputPipe = Pipe()
    let out = Pipe()
    let err = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    process.standardOutput = out
    process.standardError = err
    let exited = OneShot<Void>()
    process.terminationHandler = { _ in exited.fulfil(()) }
    try process.run()
    let standard = OneShot<Data>()
    let error = OneShot<Data>()
    let outReader = out.fileHandleForReading
    let errReader = err.fileHandleForReading
    Thread { standard.fulfil(outReader.readDataToEndOfFile()) }.start()
    Thread { error.fulfil(errReader.readDataToEndOfFile()) }.start()
    if let input {
      let writer = inputPipe.fileHandleForWriting
      Thread {
        // try?: a child that exits without reading its input closes the pipe; its exit
        // status and output are the result either way.
        try? writer.write(contentsOf: input)
        try? writer.close()  // try?: as above, the pipe may be closed already.
      }.start()
    }
    await exited.wait()
    let printed = await standard.wait()
    let complaint = await error.wait()
    return Result(
      status: process.terminationStatus,
      signalled: process.terminationReason == .uncaughtSignal,
      standard: String(decoding: printed, as: UTF8.self),
      error: String(decoding: complaint, as: UTF8.self))
  }

  /// Runs a program found on `PATH` (through `/usr/bin/env`).
  public static func run(
    program: String, _ arguments: [String], in directory: URL? = nil, input: Data? = nil
  ) async throws -> Result {
    try await run(
      URL(fileURLWithPath: "/usr/bin/env"), [program] + arguments, in: directory, input: input)
  }
}
