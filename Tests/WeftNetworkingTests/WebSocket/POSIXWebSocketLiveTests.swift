import Foundation
import TestProcesses
import Testing

@testable import WeftNetworking

/// `Fixtures/websocket_server.py` (TestProcesses' standard-library `weft_websocket`) on
/// 127.0.0.1 for one test.
private struct WebSocketServer {
  let wsPort: Int
  let garbagePort: Int
  let stallPort: Int

  func url(_ path: String) -> URL { URL(string: "ws://127.0.0.1:\(wsPort)\(path)")! }
}

private func withWebSocketServer<T>(
  wsPort: Int = 0, _ body: (WebSocketServer) async throws -> T
) async throws -> T {
  guard
    let script = Bundle.module.url(
      forResource: "websocket_server", withExtension: "py", subdirectory: "Fixtures")
  else { throw FixtureError("Fixtures/websocket_server.py is not in the test bundle") }
  let arguments = [script.path, "--lifetime", "300", "--ws-port", "\(wsPort)"]
  return try await ServerProcess.with(program: "python3", arguments) { text in
    let ports = announcedFields(text, after: "PORTS")?.compactMapValues { Int($0) } ?? [:]
    guard let ws = ports["ws"], let garbage = ports["garbage"], let stall = ports["stall"]
    else { throw FixtureError("websocket_server.py did not print its ports (got \"\(text)\")") }
    return try await body(WebSocketServer(wsPort: ws, garbagePort: garbage, stallPort: stall))
  }
}

@Suite("POSIX WebSocket against a real python WebSocket server")
struct POSIXWebSocketLiveTests {
  @Test func echoesTextAndBinary() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/echo")).connect()
      defer { socket.close() }
      try await socket.send(.text("héllo"))
      #expect(try await socket.receive() == .text("héllo"))
      let big = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
      try await socket.send(.data(big))
      #expect(try await socket.receive() == .data(big))
    }
  }

  /// Messages past the streamed-send size go out framed and masked in chunks, and come back
  /// through the decoder's sink; a small message sent after each follows it in order, and a
  /// fragmented one is framed the same way.
  @Test func echoesLargeMessagesWrittenInChunks() async throws {
    try await withWebSocketServer { server in
      var configuration = WebSocketConfiguration(maxMessageSize: 8 << 20)
      let socket = try await POSIXWebSocketTransport(
        url: server.url("/echo"), configuration: configuration
      ).connect()
      defer { socket.close() }
      let binary = Data((0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
      let text = String(repeating: "κόσμε ", count: 200_000)
      for message in [RealtimeMessage.data(binary), .text(text)] {
        try await socket.send(message)
        try await socket.send(.text("after"))
        #expect(try await socket.receive() == message)
        #expect(try await socket.receive() == .text("after"))
      }
      configuration.fragmentSize = 300_000
      let fragmented = try await POSIXWebSocketTransport(
        url: server.url("/echo"), configuration: configuration
      ).connect()
      defer { fragmented.close() }
      try await fragmented.send(.text(text))
      #expect(try await fragmented.receive() == .text(text))
    }
  }

  @Test func receivesServerPush() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/push")).connect()
      defer { socket.close() }
      #expect(try await socket.receive() == .text("push 1"))
      #expect(try await socket.receive() == .text("push 2"))
    }
  }

  @Test func answersServerPingsAndGetsPongsForItsOwn() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/ping")).connect()
      defer { socket.close() }
      // The server sends this only after its ping's pong arrived.
      #expect(try await socket.receive() == .text("pong seen"))
      let pong: (any Error)? = try await bounded {
        await withCheckedContinuation { continuation in
          socket.sendPing { continuation.resume(returning: $0) }
        }
      }
      #expect(pong == nil)
    }
  }

  @Test func cleanServerCloseReportsItsCode() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/close")).connect()
      await #expect(throws: WebSocketError.closed(code: 4001, reason: "bye")) {
        try await socket.receive()
      }
      await #expect(throws: WebSocketError.closed(code: 4001, reason: "bye")) {
        try await socket.send(.text("too late"))
      }
    }
  }

  @Test func oversizeMessageIsATypedError() async throws {
    try await withWebSocketServer { server in
      let transport = POSIXWebSocketTransport(
        url: server.url("/big"), configuration: WebSocketConfiguration(maxMessageSize: 1 << 20))
      let socket = try await transport.connect()
      await #expect(throws: WebSocketError.messageTooLarge(limit: 1 << 20)) {
        try await socket.receive()
      }
    }
  }

  @Test func garbageInsteadOfAHandshakeIsATypedError() async throws {
    try await withWebSocketServer { server in
      let url = URL(string: "ws://127.0.0.1:\(server.garbagePort)/")!
      do {
        _ = try await POSIXWebSocketTransport(url: url).connect()
        Issue.record("connected to a server that is not a WebSocket server")
      } catch let error as WebSocketError {
        guard case .handshakeFailed(let why) = error else {
          Issue.record("\(error)")
          return
        }
        #expect(why.contains("not HTTP"))
        #expect(why.contains("SSH-2.0"))
      }
    }
  }

  @Test func stalledServerTimesOutTheConnect() async throws {
    try await withWebSocketServer { server in
      let url = URL(string: "ws://127.0.0.1:\(server.stallPort)/")!
      let transport = POSIXWebSocketTransport(
        url: url, configuration: WebSocketConfiguration(connectTimeout: .milliseconds(300)))
      try await bounded {
        await #expect(throws: WebSocketError.connectTimedOut) { try await transport.connect() }
      }
    }
  }

  @Test func silentServerHitsTheIdleTimeout() async throws {
    try await withWebSocketServer { server in
      let transport = POSIXWebSocketTransport(
        url: server.url("/silent"),
        configuration: WebSocketConfiguration(idleTimeout: .milliseconds(300)))
      let socket = try await transport.connect()
      try await bounded {
        await #expect(throws: WebSocketError.idleTimedOut) { try await socket.receive() }
      }
    }
  }

  @Test func cancellingAReceiveEndsIt() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/silent")).connect()
      let receiving = Task { try await socket.receive() }
      try await Task.sleep(for: .milliseconds(100))
      receiving.cancel()
      let outcome = try await bounded { await receiving.result }
      #expect(throws: (any Error).self) { try outcome.get() }
      // The socket is finished for good.
      await #expect(throws: WebSocketError.self) { try await socket.send(.text("x")) }
    }
  }

  @Test func clientCloseWakesAPendingReceive() async throws {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(url: server.url("/silent")).connect()
      let receiving = Task { try await socket.receive() }
      try await Task.sleep(for: .milliseconds(100))
      socket.close()
      let outcome = try await bounded { await receiving.result }
      #expect(throws: WebSocketError.self) { try outcome.get() }
    }
  }

  @Test func refusedPortIsASocketError() async throws {
    let closed = try await withWebSocketServer { $0.stallPort }  // released after the server exits
    do {
      _ = try await POSIXWebSocketTransport(url: URL(string: "ws://127.0.0.1:\(closed)/")!)
        .connect()
      Issue.record("connected to a closed port")
    } catch let error as WebSocketError {
      guard case .socket(let why) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(why.contains("connect"))
    }
  }

  @Test func drivesRealtimeConnection() async throws {
    try await withWebSocketServer { server in
      let connection = RealtimeConnection(
        transport: POSIXWebSocketTransport(url: server.url("/push")), heartbeat: nil)
      await connection.connect()
      let first: RealtimeMessage? = try await bounded {
        var iterator = connection.messages.makeAsyncIterator()
        return await iterator.next()
      }
      #expect(first == .text("push 1"))
      await connection.disconnect()
    }
  }

  @Test func disconnectSendsTheClosingHandshake() async throws {
    try await withWebSocketServer { server in
      let connection = RealtimeConnection(
        transport: POSIXWebSocketTransport(url: server.url("/silent")), heartbeat: nil)
      await connection.connect()
      _ = try await bounded {
        for await state in connection.states where state == .connected { return true }
        return false
      }
      await connection.disconnect()
      // The server records the code of the close frame it got (1006: none was sent).
      let code: String = try await bounded {
        while true {
          let probe = try await POSIXWebSocketTransport(url: server.url("/last-close")).connect()
          let message = try await probe.receive()
          probe.close()
          if case .text(let text) = message, text != "None" { return text }
          try await Task.sleep(for: .milliseconds(50))
        }
      }
      #expect(code == "1000")
    }
  }

  @Test func serverKilledMidStreamIsReconnectedByThePolicy() async throws {
    let connection = try await withWebSocketServer { server in
      let connection = RealtimeConnection(
        transport: POSIXWebSocketTransport(url: server.url("/push")),
        policy: ReconnectPolicy(maxAttempts: 100, baseDelay: .milliseconds(50), jitter: 0),
        heartbeat: nil)
      await connection.connect()
      let first: RealtimeMessage? = try await bounded {
        var iterator = connection.messages.makeAsyncIterator()
        return await iterator.next()
      }
      #expect(first == .text("push 1"))
      return (connection, server.wsPort)
    }
    // The server process is gone (killed on leaving the scope); a new one on the same port.
    try await withWebSocketServer(wsPort: connection.1) { _ in
      let states: [ConnectionState] = try await bounded {
        var seen: [ConnectionState] = []
        for await state in connection.0.states {
          seen.append(state)
          if state == .connected
            && seen.contains(where: {
              if case .reconnecting = $0 { true } else { false }
            })
          {
            break
          }
        }
        return seen
      }
      #expect(states.contains(.connected))
      let messages: [RealtimeMessage] = try await bounded {
        var iterator = connection.0.messages.makeAsyncIterator()
        var messages: [RealtimeMessage] = []
        while messages.last != .text("push 1"), let next = await iterator.next() {
          messages.append(next)
        }
        return messages
      }
      // The reconnected socket got the new server's first push.
      #expect(messages.last == .text("push 1"))
      await connection.0.disconnect()
    }
  }

  // wss:// is covered by POSIXWebSocketTLSTests; other schemes are refused.
  @Test func otherSchemesAreRefused() async throws {
    await #expect(throws: WebSocketError.unsupportedURL("https://127.0.0.1:1/")) {
      try await POSIXWebSocketTransport(url: URL(string: "https://127.0.0.1:1/")!).connect()
    }
  }
}

/// `WebSocketConfiguration.providesTaskExecutor`: the socket's reader thread as a task
/// executor.
@Suite("POSIX WebSocket's task executor on its reader thread")
struct POSIXWebSocketTaskExecutorTests {
  /// Where a task runs now: on `socket`'s reader thread or not.
  private static func onReaderThread(_ socket: any RealtimeSocket) -> Bool {
    (socket as? POSIXWebSocket)?.isOnReaderThread == true
  }

  @Test(.timeLimit(.minutes(1))) func aPreferringTaskIsResumedOnTheSocketThread() async throws {
    try await withWebSocketServer { server in
      let plain = try await POSIXWebSocketTransport(url: server.url("/echo")).connect()
      defer { plain.close() }
      #expect(plain.taskExecutor == nil)
      try await plain.send(.text("plain"))
      #expect(try await plain.receive() == .text("plain"))
      #expect(!Self.onReaderThread(plain))

      let configuration = WebSocketConfiguration(
        maxMessageSize: 8 << 20, providesTaskExecutor: true)
      let socket = try await POSIXWebSocketTransport(
        url: server.url("/echo"), configuration: configuration
      ).connect()
      defer { socket.close() }
      let executor = try #require(socket.taskExecutor)
      // 3 MiB goes out on the write queue, whose completion arrives from another thread while
      // the reader thread polls (the wake-up pipe); the small ones are written inline.
      let large = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
      let resumedOnSocketThread = try await withTaskExecutorPreference(executor) {
        var everyTime = true
        for round in 0..<20 {
          let message: RealtimeMessage = round == 10 ? .data(large) : .text("message \(round)")
          try await socket.send(message)
          #expect(try await socket.receive() == message)
          everyTime = everyTime && Self.onReaderThread(socket)
        }
        // A sleep's timer resumes the task from another thread, too.
        try await Task.sleep(for: .milliseconds(20))
        return everyTime && Self.onReaderThread(socket)
      }
      #expect(resumedOnSocketThread)
      // The write queue's completion and the timer arrived while the reader thread slept in
      // poll: the pipe woke it (without it, each would wait for the end of a 100 ms slice).
      #expect(((socket as? POSIXWebSocket)?.executorWakeUps ?? 0) > 0)
    }
  }

  @Test(.timeLimit(.minutes(1))) func closingFromTheSocketThreadEndsAndTheTaskGoesOn() async throws
  {
    try await withWebSocketServer { server in
      let socket = try await POSIXWebSocketTransport(
        url: server.url("/echo"), configuration: WebSocketConfiguration(providesTaskExecutor: true)
      ).connect()
      let closure = try await bounded {
        try await withTaskExecutorPreference(socket.taskExecutor) {
          try await socket.send(.text("last"))
          #expect(try await socket.receive() == .text("last"))
          #expect(Self.onReaderThread(socket))
          // close() on the reader thread itself; the thread then ends, and the task's later
          // resumptions run elsewhere (Dispatch's global queue).
          socket.close(code: 4100, reason: "done")
          await #expect(throws: WebSocketError.self) { try await socket.receive() }
          return await socket.closure()
        }
      }
      #expect(closure?.sentCode == 4100)
      #expect(closure?.wasClean == true, "\(String(describing: closure))")
    }
  }
}
