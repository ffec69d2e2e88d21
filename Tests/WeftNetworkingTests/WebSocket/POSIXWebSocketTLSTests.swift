import Foundation
import TestProcesses
import Testing
import WeftCore

@testable import WeftNetworking

// wss:// against a real server: `Fixtures/websocket_tls_server.py` (python's ssl and
// TestProcesses' standard-library `weft_websocket`) with self-signed certificates it makes
// with the `openssl` tool; without that tool the fixture names the command that installs it
// and every test here fails with it. The python process is started, read and awaited without
// blocking a cooperative thread (TestProcesses' ServerProcess). Linux only: that is the only
// platform whose build links OpenSSL for `POSIXWebSocketTransport` (Apple platforms use
// URLSessionRealtimeTransport for wss://).
#if os(Linux)

/// The running fixture: its ports and the certificates it serves.
private struct TLSServer {
  /// TLS with `certificate` (CN and IP SAN 127.0.0.1).
  let tlsPort: Int
  /// TLS with `otherCertificate`, which names only `elsewhere.invalid`.
  let wrongNamePort: Int
  /// The same WebSocket server without TLS.
  let plainPort: Int
  /// PEM file of the self-signed certificate for 127.0.0.1.
  let certificate: String
  /// PEM file of the self-signed certificate for elsewhere.invalid.
  let otherCertificate: String

  func url(_ path: String, port: Int? = nil) -> URL {
    URL(string: "wss://127.0.0.1:\(port ?? tlsPort)\(path)")!
  }

  /// A transport for `path` that trusts exactly the server's certificate file.
  func trusting(_ path: String) -> POSIXWebSocketTransport {
    POSIXWebSocketTransport(
      url: url(path),
      configuration: WebSocketConfiguration(tls: WebSocketTLS(trust: .pemFile(certificate))))
  }
}

private func withTLSServer<T>(_ body: (TLSServer) async throws -> T) async throws -> T {
  guard
    let script = Bundle.module.url(
      forResource: "websocket_tls_server", withExtension: "py", subdirectory: "Fixtures")
  else { throw FixtureError("Fixtures/websocket_tls_server.py is not in the test bundle") }
  // A long lifetime: the server also ends when its stdin closes or this process dies, and a
  // sanitizer build on a busy machine needs more than a minute for the large messages.
  return try await ServerProcess.with(program: "python3", [script.path, "--lifetime", "300"]) {
    line in
    let fields = announcedFields(line, after: "READY") ?? [:]
    guard let tls = fields["tls"].flatMap(Int.init),
      let wrongName = fields["wrongname"].flatMap(Int.init),
      let plain = fields["plain"].flatMap(Int.init), let certificate = fields["cert"],
      let other = fields["other"]
    else { throw FixtureError("websocket_tls_server.py did not start (got \"\(line)\")") }
    return try await body(
      TLSServer(
        tlsPort: tls, wrongNamePort: wrongName, plainPort: plain, certificate: certificate,
        otherCertificate: other))
  }
}

@Suite("POSIX WebSocket over TLS (wss://) against a real python server with ssl")
struct POSIXWebSocketTLSTests {
  @Test func echoesOverTLSWithTheCertificateTrustedExplicitly() async throws {
    try await withTLSServer { server in
      let socket = try await server.trusting("/echo").connect()
      defer { socket.close() }
      try await socket.send(.text("héllo over TLS"))
      #expect(try await socket.receive() == .text("héllo over TLS"))
      try await socket.send(.data(Data([0, 1, 2, 255])))
      #expect(try await socket.receive() == .data(Data([0, 1, 2, 255])))
    }
  }

  @Test func trustGivenAsPEMTextWorksToo() async throws {
    try await withTLSServer { server in
      let pem = try String(contentsOfFile: server.certificate, encoding: .utf8)
      let transport = POSIXWebSocketTransport(
        url: server.url("/echo"),
        configuration: WebSocketConfiguration(tls: WebSocketTLS(trust: .pem(pem))))
      let socket = try await transport.connect()
      defer { socket.close() }
      try await socket.send(.text("pem"))
      #expect(try await socket.receive() == .text("pem"))
    }
  }

  @Test func systemTrustRefusesTheSelfSignedCertificate() async throws {
    try await withTLSServer { server in
      // The default configuration: the system trust store, which does not hold it.
      do {
        _ = try await POSIXWebSocketTransport(url: server.url("/echo")).connect()
        Issue.record("connected to a self-signed server with the system trust store")
      } catch let error as WebSocketError {
        guard case .certificateRejected(let host, let reason) = error else {
          Issue.record("expected certificateRejected, got \(error)")
          return
        }
        #expect(host == "127.0.0.1")
        #expect(reason.contains("self-signed certificate"))
        #expect(reason.contains("X509 verify error 18"))
        #expect("\(error)".contains("the certificate of 127.0.0.1 was rejected"))
      }
    }
  }

  @Test func aCertificateForAnotherHostIsRefusedEvenWhenTrusted() async throws {
    try await withTLSServer { server in
      // Trusts the other certificate itself: the chain verifies, the name does not match.
      let transport = POSIXWebSocketTransport(
        url: server.url("/echo", port: server.wrongNamePort),
        configuration: WebSocketConfiguration(
          tls: WebSocketTLS(trust: .pemFile(server.otherCertificate))))
      do {
        _ = try await transport.connect()
        Issue.record("connected to a server whose certificate names elsewhere.invalid")
      } catch let error as WebSocketError {
        guard case .certificateRejected(let host, let reason) = error else {
          Issue.record("expected certificateRejected, got \(error)")
          return
        }
        #expect(host == "127.0.0.1")
        #expect(reason.contains("IP address mismatch"))
      }
    }
  }

  @Test func aCertificateForAnotherHostNameIsRefusedEvenWhenTrusted() async throws {
    try await withTLSServer { server in
      // A DNS name this time: the certificate names elsewhere.invalid, the URL localhost.
      let transport = POSIXWebSocketTransport(
        url: URL(string: "wss://localhost:\(server.wrongNamePort)/echo")!,
        configuration: WebSocketConfiguration(
          tls: WebSocketTLS(trust: .pemFile(server.otherCertificate))))
      do {
        _ = try await transport.connect()
        Issue.record("connected to localhost with a certificate for elsewhere.invalid")
      } catch let error as WebSocketError {
        guard case .certificateRejected(let host, let reason) = error else {
          Issue.record("expected certificateRejected, got \(error)")
          return
        }
        #expect(host == "localhost")
        #expect(reason.contains("hostname mismatch"))
      }
    }
  }

  @Test func sendsTheServerNameForHostNamesAndNoneForIPAddresses() async throws {
    try await withTLSServer { server in
      let trust = WebSocketConfiguration(tls: WebSocketTLS(trust: .pemFile(server.certificate)))
      let byName = try await POSIXWebSocketTransport(
        url: URL(string: "wss://localhost:\(server.tlsPort)/sni")!, configuration: trust
      ).connect()
      #expect(try await byName.receive() == .text("localhost"))
      byName.close()
      let byAddress = try await server.trusting("/sni").connect()
      #expect(try await byAddress.receive() == .text("None"))
      byAddress.close()
    }
  }

  @Test func trustingOneCertificateDoesNotTrustAnother() async throws {
    try await withTLSServer { server in
      // Trusts 127.0.0.1's certificate; the wrongname port serves a different one.
      let transport = POSIXWebSocketTransport(
        url: server.url("/echo", port: server.wrongNamePort),
        configuration: WebSocketConfiguration(
          tls: WebSocketTLS(trust: .pemFile(server.certificate))))
      do {
        _ = try await transport.connect()
        Issue.record("connected to a server whose certificate was not the trusted one")
      } catch let error as WebSocketError {
        guard case .certificateRejected(_, let reason) = error else {
          Issue.record("expected certificateRejected, got \(error)")
          return
        }
        #expect(reason.contains("self-signed certificate"))
      }
    }
  }

  @Test func aServerThatDoesNotSpeakTLSIsATypedError() async throws {
    try await withTLSServer { server in
      let transport = POSIXWebSocketTransport(
        url: server.url("/echo", port: server.plainPort),
        configuration: WebSocketConfiguration(
          tls: WebSocketTLS(trust: .pemFile(server.certificate))))
      do {
        _ = try await transport.connect()
        Issue.record("a TLS handshake succeeded with a plain server")
      } catch let error as WebSocketError {
        guard case .tls(let host, let reason) = error else {
          Issue.record("expected tls, got \(error)")
          return
        }
        #expect(host == "127.0.0.1")
        // The fixture drops the connection on a ClientHello; an HTTP answer would instead be
        // "wrong version number".
        #expect(
          reason.contains("closed the connection during the TLS handshake")
            || reason.contains("wrong version number"))
      }
    }
  }

  @Test func anUnreadableTrustFileIsATypedError() async throws {
    let transport = POSIXWebSocketTransport(
      url: URL(string: "wss://127.0.0.1:1/")!,
      configuration: WebSocketConfiguration(
        tls: WebSocketTLS(trust: .pemFile("/nonexistent/weft-ca.pem"))))
    do {
      _ = try await transport.connect()
      Issue.record("connected without a trust store")
    } catch let error as WebSocketError {
      guard case .tls(_, let reason) = error else {
        Issue.record("expected tls, got \(error)")
        return
      }
      #expect(reason.contains("/nonexistent/weft-ca.pem"))
    }
    await #expect(
      throws: WebSocketError.tls(
        host: "127.0.0.1", reason: "the trusted PEM text holds no certificate")
    ) {
      try await POSIXWebSocketTransport(
        url: URL(string: "wss://127.0.0.1:1/")!,
        configuration: WebSocketConfiguration(tls: WebSocketTLS(trust: .pem("not a certificate")))
      ).connect()
    }
  }

  @Test func clientCloseSendsTheClosingHandshakeOverTLS() async throws {
    try await withTLSServer { server in
      let socket = try await server.trusting("/silent").connect()
      socket.close()
      // The server records the code of the close frame it got (1006: none arrived).
      var code = "None"
      while code == "None" {
        let probe = try await server.trusting("/last-close").connect()
        if case .text(let text) = try await probe.receive() { code = text }
        probe.close()
        if code == "None" { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(code == "1000")
    }
  }

  @Test func serverCloseReportsItsCodeOverTLS() async throws {
    try await withTLSServer { server in
      let socket = try await server.trusting("/close").connect()
      await #expect(throws: WebSocketError.closed(code: 4001, reason: "bye")) {
        try await socket.receive()
      }
    }
  }

  @Test func largeMessagesCrossTLSBothWays() async throws {
    try await withTLSServer { server in
      let big = try await server.trusting("/big").connect()
      let received = try await big.receive()
      big.close()
      #expect(received == .data(Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0) })))

      // 3 MiB out and back: many TLS records and WebSocket frames' worth of bytes each way.
      let echo = try await server.trusting("/echo").connect()
      defer { echo.close() }
      let payload = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
      try await echo.send(.data(payload))
      #expect(try await echo.receive() == .data(payload))
      try await echo.send(.text(String(repeating: "é", count: 200_000)))
      #expect(try await echo.receive() == .text(String(repeating: "é", count: 200_000)))
    }
  }

  @Test func anOversizeMessageOverTLSIsATypedError() async throws {
    try await withTLSServer { server in
      let transport = POSIXWebSocketTransport(
        url: server.url("/big"),
        configuration: WebSocketConfiguration(
          maxMessageSize: 1 << 20, tls: WebSocketTLS(trust: .pemFile(server.certificate))))
      let socket = try await transport.connect()
      await #expect(throws: WebSocketError.messageTooLarge(limit: 1 << 20)) {
        try await socket.receive()
      }
    }
  }

  @Test func aSilentServerOverTLSHitsTheIdleTimeout() async throws {
    try await withTLSServer { server in
      let transport = POSIXWebSocketTransport(
        url: server.url("/silent"),
        configuration: WebSocketConfiguration(
          idleTimeout: .milliseconds(300), tls: WebSocketTLS(trust: .pemFile(server.certificate))))
      let socket = try await transport.connect()
      await #expect(throws: WebSocketError.idleTimedOut) { try await socket.receive() }
    }
  }

  @Test func drivesRealtimeConnectionOverTLS() async throws {
    try await withTLSServer { server in
      let connection = RealtimeConnection(transport: server.trusting("/echo"), heartbeat: nil)
      await connection.connect()
      for await state in connection.states where state == .connected { break }
      try await connection.send(.text("through the connection"))
      var iterator = connection.messages.makeAsyncIterator()
      #expect(await iterator.next() == .text("through the connection"))
      await connection.disconnect()
    }
  }
}
#endif
