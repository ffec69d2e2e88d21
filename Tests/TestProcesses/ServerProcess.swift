import Foundation

/// A fixture server in a child process (a python script on 127.0.0.1, say) that announces
/// itself with one line on standard output, typically the ports it bound.
///
/// Nothing here blocks a thread of the cooperative pool: the first line is read on a plain
/// thread and the exit is awaited through `terminationHandler`. The server should also end
/// when its standard input closes, so a crashed test run leaves nothing behind.
///
/// Not `Sendable`: it holds a `Process` and a `Pipe`, which Apple's Foundation does not mark
/// `Sendable`; a test uses one from the task that started it.
///
/// - Note: Isolation: any; one short-lived thread per server.
public struct ServerProcess {
  private let process: Process
  private let input = Pipe()
  private let exited = OneShot<Int32>()
  private let announced = OneShot<String>()

  /// Starts `program` (found on `PATH`) with `arguments`, with `PythonFixtures.directory` on
  /// `PYTHONPATH`. Its standard error is discarded.
  ///
  /// - Throws: what `Process.run()` throws when the program cannot be started.
  public init(program: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    process.environment = PythonFixtures.environment()
    process.standardInput = input
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let exited = exited
    process.terminationHandler = { exited.fulfil($0.terminationStatus) }
    try process.run()
    self.process = process
    // A plain thread, not the file handle's `readabilityHandler`: its dispatch read source
    // crashed libdispatch's event loop under ThreadSanitizer (3 runs in 9) once the pipe closed.
    let handle = output.fileHandleForReading
    let announced = announced
    Thread {
      var seen = Data()
      while !seen.contains(UInt8(ascii: "\n")) {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
      }
      announced.fulfil(String(decoding: seen, as: UTF8.self))
    }.start()
  }

  /// The server's first line (without reading further), or what it printed before it exited.
  public func firstLine() async -> String { await announced.wait() }

  /// Ends the server (SIGTERM and a closed standard input) and waits for it to exit.
  public func stop() async {
    if process.isRunning { process.terminate() }
    // try?: the pipe may already be closed by the exiting server; nothing to report.
    try? input.fileHandleForWriting.close()
    _ = await exited.wait()
  }

  /// Starts a server, passes its first line to `body`, and stops the server afterwards,
  /// whether `body` returns or throws.
  public static func with<T>(
    isolation: isolated (any Actor)? = #isolation, program: String, _ arguments: [String],
    _ body: (String) async throws -> T
  ) async throws -> T {
    let server = try ServerProcess(program: program, arguments)
    let result: Result<T, any Error>
    do {
      result = .success(try await body(await server.firstLine()))
    } catch {
      result = .failure(error)
    }
    await server.stop()
    return try result.get()
  }
}
