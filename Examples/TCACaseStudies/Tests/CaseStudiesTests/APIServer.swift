import Foundation

/// `Fixtures/api_server.py` on 127.0.0.1 for one test: the real loopback server the live API
/// clients talk to. It prints its port, and stops when its stdin closes.
struct APIServer {
  let baseURL: URL

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `body` with a fresh server, then closes its stdin and awaits its exit, whatever
  /// `body` did.
  static func with<T>(_ body: (APIServer) async throws -> T) async throws -> T {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/api_server.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--lifetime", "300"]
    let (output, input) = (Pipe(), Pipe())
    (process.standardOutput, process.standardInput) = (output, input)
    let exited = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in exited.continuation.finish() }
    try process.run()
    defer {
      try? input.fileHandleForWriting.close()  // try?: a server already gone has stopped
    }
    let line = await firstLine(of: output.fileHandleForReading)
    let result: Result<T, any Error>
    if let port = line.split(separator: " ").last.flatMap({ Int($0) }), line.hasPrefix("PORT ") {
      do {
        result = .success(
          try await body(APIServer(baseURL: URL(string: "http://127.0.0.1:\(port)")!)))
      } catch { result = .failure(error) }
    } else {
      result = .failure(
        Failure(
          description: "api_server.py printed \"\(line)\", not its port: is python3 installed?"))
    }
    try? input.fileHandleForWriting.close()  // try?: closing twice is harmless
    for await _ in exited.stream {}
    return try result.get()
  }

  /// The first line `handle` gives, read on a thread of its own (a blocking read never holds
  /// a thread of the cooperative pool).
  private static func firstLine(of handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          bytes.append(chunk)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        continuation.resume(returning: String(text.prefix { $0 != "\n" }))
      }
    }
  }
}
