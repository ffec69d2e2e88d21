import Foundation
import Synchronization
import WeftCore

#if canImport(Glibc)
import Glibc
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let streamSocketType = SOCK_STREAM
private let sendFlags: Int32 = 0
#endif

/// Limits and handshake options for ``POSIXWebSocketTransport``.
///
/// ```swift
/// var configuration = WebSocketConfiguration(subprotocols: ["chat.v2", "chat.v1"])
/// configuration.headers["Authorization"] = "Bearer \(token)"
/// configuration.fragmentSize = 16 * 1024      // large sends go out in 16 KiB frames
/// configuration.observesControlFrames = true  // socket.controlFrames reports pings/pongs
/// ```
///
/// - Complexity: O(1).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: none.
public struct WebSocketConfiguration: Sendable, Equatable {
  /// The dial and the opening handshake together, or ``WebSocketError/connectTimedOut``.
  public var connectTimeout: Duration
  /// The longest silence (no bytes from the server) before ``WebSocketError/idleTimedOut``;
  /// nil for none (pair with ``RealtimeConnection``'s heartbeat instead).
  public var idleTimeout: Duration?
  /// How long ``RealtimeSocket/close()`` waits for the server's close frame.
  public var closeTimeout: Duration
  /// The largest message accepted, all fragments together.
  public var maxMessageSize: Int
  /// For `wss://` URLs: what is trusted (the system store by default). Certificates are always
  /// verified against the URL's host.
  public var tls: WebSocketTLS
  /// Subprotocols offered in `Sec-WebSocket-Protocol`, most preferred first; the socket's
  /// `subprotocol` is the one the server chose. A server that answers with one not offered
  /// fails the connect (``WebSocketError/handshakeFailed(_:)``).
  public var subprotocols: [String]
  /// Extra fields for the opening handshake (an `Authorization` token, `Origin`, cookies).
  /// The fields the handshake itself writes (`Host`, `Upgrade`, `Connection`,
  /// `Sec-WebSocket-*`) and values holding a line break are refused by `connect`.
  public var headers: HTTPHeaders
  /// The largest payload of one frame a `send` writes; longer messages go out as a first
  /// frame and continuations. nil: one frame per message.
  public var fragmentSize: Int?
  /// Whether the socket reports the server's pings and pongs on `controlFrames` (they are
  /// answered either way).
  public var observesControlFrames: Bool
  /// permessage-deflate (RFC 7692) to offer, nil for none: used when the server accepts it.
  public var compression: WebSocketCompression?
  /// Whether the socket's reader thread also serves as a `TaskExecutor` (SE-0417), its
  /// `taskExecutor`: nonisolated code of a task that runs under
  /// `withTaskExecutorPreference(socket.taskExecutor)` and awaits `receive()` is resumed on
  /// the thread that read the message, without waking a thread of the cooperative pool, and
  /// its `send`s write from that thread too. False (the default): `taskExecutor` is nil.
  ///
  /// ```swift
  /// func exchange(on socket: any RealtimeSocket) async throws {  // nonisolated
  ///   try await socket.send(.text("hello"))
  ///   print(try await socket.receive())  // resumed on the socket's thread
  /// }
  /// var configuration = WebSocketConfiguration()
  /// configuration.providesTaskExecutor = true
  /// let socket = try await POSIXWebSocketTransport(url: url, configuration: configuration)
  ///   .connect()
  /// try await withTaskExecutorPreference(socket.taskExecutor) {
  ///   try await exchange(on: socket)
  /// }
  /// ```
  ///
  /// - Complexity: saves one thread wake-up per message a task awaits; costs one pipe per
  ///   socket, and a `write` to it when a job arrives from another thread while the reader
  ///   waits in `poll`.
  /// - Note: Isolation: jobs run between two polls of the socket, so while one runs the
  ///   socket reads nothing and no timeout is checked: keep the work a preferring task does
  ///   between awaits short, and never block in it (a lock held elsewhere, a semaphore, a
  ///   synchronous wait for the same socket). Actor-isolated code still runs on its actor.
  ///   Once the socket's thread has ended, the executor's jobs run on Dispatch's global
  ///   queue.
  public var providesTaskExecutor: Bool

  /// Makes a configuration: 10 s connect (dial, TLS and WebSocket handshakes together), no
  /// idle timeout, 1 s close, 16 MiB messages, the system trust store for `wss://`, no
  /// subprotocol or extra header, one frame per message, control frames not reported, no task
  /// executor.
  public init(
    connectTimeout: Duration = .seconds(10), idleTimeout: Duration? = nil,
    closeTimeout: Duration = .seconds(1), maxMessageSize: Int = 16 << 20,
    tls: WebSocketTLS = WebSocketTLS(), subprotocols: [String] = [],
    headers: HTTPHeaders = [:], fragmentSize: Int? = nil, observesControlFrames: Bool = false,
    compression: WebSocketCompression? = nil, providesTaskExecutor: Bool = false
  ) {
    self.connectTimeout = connectTimeout
    self.idleTimeout = idleTimeout
    self.closeTimeout = closeTimeout
    self.maxMessageSize = maxMessageSize
    self.tls = tls
    self.subprotocols = subprotocols
    self.headers = headers
    self.fragmentSize = fragmentSize
    self.observesControlFrames = observesControlFrames
    self.compression = compression
    self.providesTaskExecutor = providesTaskExecutor
  }
}

/// A WebSocket client (RFC 6455) on the platform's POSIX sockets, for `ws://` and `wss://`
/// URLs: works on Linux, where `URLSessionRealtimeTransport` cannot open WebSockets.
///
/// Messages come before the end: a server's close frame, or a bad frame, that follows
/// messages the application has not taken yet is acted on when it asks for the next one (or
/// after the close timeout), so it receives, and may answer, every valid message first.
///
/// Each socket has one dedicated thread that dials, handshakes and then reads, with `poll()`
/// in slices of at most 100 ms, so `close()` and task cancellation take effect within one
/// slice; the protocol itself is ``WebSocketConnectionMachine``. `wss://` runs TLS 1.2 or 1.3
/// through the system OpenSSL (Linux builds only; elsewhere it throws
/// ``WebSocketError/tls(host:reason:)``): the certificate is verified against
/// ``WebSocketConfiguration/tls``'s trust and must name the URL's host.
///
/// - Complexity: one thread and one socket per connection; messages are whole in memory;
///   `wss://` adds OpenSSL's per-record encryption and, per connect, reading the trust store.
/// - Note: Isolation: thread-safe; state behind WeftCore's `Locked` (a pthread lock ThreadSanitizer sees; `Synchronization.Mutex` is invisible to it on Linux), callbacks (`onPong`) on the
///   socket's thread.
/// A `send` writes on the caller's thread while nothing is queued and the socket has room
/// (no thread hop); what the socket cannot take at once, and every message of 1 MiB or more
/// (framed and masked 256 KiB at a time, never copied whole), goes out on the socket's write
/// queue while `send` awaits it.
///
/// - Note: Allocations: two 256 KiB read buffers per socket, which take turns as the
///   decoder's buffer (a read that starts a frame is decoded where it landed, not copied),
///   one array per message sent below 1 MiB (a 256 KiB chunk for larger ones), and one `Data`
///   or `String` per message (a large one arriving in parts is read straight into its
///   `Data`); the decoder's buffer grows past 256 KiB only to hold a frame cut by reads that
///   does not go straight to a `Data` (a fragment, a compressed frame).
public struct POSIXWebSocketTransport: RealtimeTransport {
  public let url: URL
  public let configuration: WebSocketConfiguration

  /// Makes a transport for `url` (`ws://host[:port]/path` or `wss://host[:port]/path`).
  public init(url: URL, configuration: WebSocketConfiguration = WebSocketConfiguration()) {
    self.url = url
    self.configuration = configuration
  }

  /// Dials and completes the opening handshake.
  ///
  /// - Throws: ``WebSocketError``: `unsupportedURL`, `socket` (refused, unreachable),
  ///   `connectTimedOut`, `handshakeFailed` (also for an unoffered subprotocol or a refused
  ///   extra header), for `wss://` `certificateRejected` (which host, OpenSSL's verify error)
  ///   and `tls`, or `CancellationError` when the task is cancelled.
  public func connect() async throws -> any RealtimeSocket {
    let scheme = url.scheme?.lowercased()
    guard scheme == "ws" || scheme == "wss", let host = url.host, !host.isEmpty else {
      throw WebSocketError.unsupportedURL(url.absoluteString)
    }
    let secure = scheme == "wss"
    let port = url.port ?? (secure ? 443 : 80)
    var path = url.path.isEmpty ? "/" : url.path
    if let query = url.query { path += "?\(query)" }
    var random = MaskingKeySource()
    let handshake = WebSocketHandshake(
      host: host, port: port, path: path,
      headers: try Self.extraHeaders(configuration.headers),
      subprotocols: configuration.subprotocols, compression: configuration.compression,
      random: &random)
    let tls: TLSSession? =
      secure ? try TLSSession.make(host: host, settings: configuration.tls) : nil
    let socket = try POSIXWebSocket(
      configuration: configuration, handshake: handshake, tls: tls)
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let thread = Thread {
          socket.run(host: host, port: port, opened: continuation)
        }
        thread.name = "weft.websocket"
        thread.start()
      }
    } onCancel: {
      socket.cancel()
    }
    return socket
  }

  /// The configured extra handshake fields, or why one cannot be sent.
  private static func extraHeaders(
    _ headers: HTTPHeaders
  ) throws(WebSocketError) -> [(String, String)] {
    let reserved: Set<String> = [
      "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
      "sec-websocket-protocol", "sec-websocket-extensions",
    ]
    var fields: [(String, String)] = []
    for field in headers {
      if reserved.contains(field.name.lowercased()) {
        throw .handshakeFailed(
          "the header \"\(field.name)\" is written by the handshake itself (subprotocols: "
            + "WebSocketConfiguration.subprotocols)")
      }
      if (field.name + field.value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" })
        || field.name.isEmpty || field.name.contains(":")
      {
        throw .handshakeFailed("the header \"\(field.name)\" has a line break or is not a name")
      }
      fields.append((field.name, field.value))
    }
    return fields
  }
}

/// One socket and the thread that owns its reads.
final class POSIXWebSocket: RealtimeSocket {
  private struct Inner {
    var machine: WebSocketConnectionMachine
    var inbox: [RealtimeMessage] = []
    var waiter: CheckedContinuation<RealtimeMessage, any Error>?
    var pongWaiters: [@Sendable ((any Error)?) -> Void] = []
    var finished: WebSocketError?
    var closeDeadline: ContinuousClock.Instant?
    /// When an end held for unread messages happens anyway.
    var heldEndDeadline: ContinuousClock.Instant?
    /// How the socket ended, once its thread has finished.
    var closure: RealtimeClosure?
    var closureWaiters: [CheckedContinuation<RealtimeClosure?, Never>] = []
    var lastRead = ContinuousClock.now
    /// The handshake succeeded (even if the connection finished in the same read).
    var opened = false
    /// Write jobs on `writes` not finished yet: while there are none, `send` writes on the
    /// caller's thread itself.
    var queuedWrites = 0
  }

  private let configuration: WebSocketConfiguration
  private let inner: Locked<Inner>
  /// Serializes writes so frames never interleave; holds the file descriptor (-1 until
  /// dialed). The reader thread closes it when it ends. Taken before `tls`, never after.
  private let descriptor = Locked<Int32>(-1)
  /// `wss://`: the TLS session. Held only for each (non-blocking) OpenSSL call, never across a
  /// poll, so the reader decrypts while a writer waits for the socket to drain.
  private let tls: Locked<TLSSession>?
  private let cancelled = Atomic<Bool>(false)
  /// The reader thread gave up waiting for queued writes (the peer stopped reading for the
  /// whole close timeout): a write still waiting for room stops.
  private let writesAbandoned = Atomic<Bool>(false)
  /// Where `send` and pings write, in the order they were framed: a write polls while the
  /// socket is full (seconds for a large message to a slow peer), which must not hold a
  /// thread of the caller's cooperative pool (two on a 2-core machine), so `send` awaits it
  /// here instead.
  private let writes = DispatchQueue(label: "weft.websocket.writes")
  let controlFrames: AsyncStream<RealtimeControlFrame>
  /// The reader thread as a task executor: nil unless the configuration provides one.
  private let executor: WebSocketThreadExecutor?
  /// The reader thread's id (`CurrentThread.id`), 0 until it starts.
  private let readerThread = Atomic<UInt>(0)
  /// nil unless the configuration observes control frames.
  private let controlContinuation: AsyncStream<RealtimeControlFrame>.Continuation?

  init(
    configuration: WebSocketConfiguration, handshake: WebSocketHandshake, tls: TLSSession?
  ) throws(WebSocketError) {
    self.configuration = configuration
    executor = configuration.providesTaskExecutor ? try WebSocketThreadExecutor() : nil
    self.tls = tls.map { Locked($0) }
    let (frames, continuation) = AsyncStream<RealtimeControlFrame>.makeStream(
      bufferingPolicy: .bufferingNewest(256))
    controlFrames = frames
    if configuration.observesControlFrames {
      controlContinuation = continuation
    } else {
      controlContinuation = nil
      continuation.finish()
    }
    inner = Locked(
      Inner(
        machine: WebSocketConnectionMachine(
          handshake: handshake,
          maxMessageSize: configuration.maxMessageSize)))
  }

  // MARK: RealtimeSocket

  func send(_ message: RealtimeMessage) async throws {
    var random = MaskingKeySource()
    // Framed and written or queued under one lock: frames go out in the order they were
    // framed.
    let queued = try inner.withLock { inner throws(WebSocketError) -> QueuedWrite? in
      if let finished = inner.finished { throw finished }
      let fragmentSize = configuration.fragmentSize ?? .max
      if tls == nil, Self.payloadCount(message) >= Self.streamedSize,
        let outgoing = try inner.machine.outgoing(
          message, fragmentSize: fragmentSize, maskingKeys: &random)
      {
        // A large message: framed and masked in chunks on the write queue as the socket
        // takes them, never copied whole.
        let queued = QueuedWrite()
        enqueue(outgoing, inner: &inner) { error in queued.complete(error) }
        return queued
      }
      let bytes = try inner.machine.send(
        message, fragmentSize: fragmentSize, maskingKeys: &random)
      var written = 0
      if inner.queuedWrites == 0 && tls == nil {
        // Nothing is queued, so nothing holds the socket: write on this thread what the
        // socket takes without waiting (all of it, unless the peer is slow or the message
        // is larger than the socket's buffer). No hop to the write queue and back.
        written = try writeAvailable(bytes)
        if written == bytes.count { return nil }
      }
      // The rest waits for room on the write queue, which must not be this thread (one of
      // the caller's cooperative pool).
      let queued = QueuedWrite()
      enqueue(bytes, from: written, inner: &inner) { error in queued.complete(error) }
      return queued
    }
    try await queued?.wait()
  }

  func receive() async throws -> RealtimeMessage {
    // Asking for the next message means the application has handled those it took: an end
    // held for them (a server close or a bad frame after them) happens now.
    var random = MaskingKeySource()
    perform(
      advance { inner in
        inner.inbox.isEmpty ? inner.machine.messagesConsumed(maskingKeys: &random) : []
      })
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<RealtimeMessage, any Error>) in
        let result: Result<RealtimeMessage, any Error>? = inner.withLock { inner in
          if !inner.inbox.isEmpty { return .success(inner.inbox.removeFirst()) }
          if let finished = inner.finished { return .failure(finished) }
          if Task.isCancelled { return .failure(CancellationError()) }
          inner.waiter = continuation
          return nil
        }
        if let result { continuation.resume(with: result) }
      }
    } onCancel: {
      cancelReceive()
    }
  }

  /// A cancelled `receive`: during the client's closing handshake only the receive ends (the
  /// thread still waits for the server's close frame, at most the close timeout); otherwise
  /// the whole socket stops at once.
  private func cancelReceive() {
    typealias Waiter = CheckedContinuation<RealtimeMessage, any Error>
    let (closing, waiter) = inner.withLock { inner -> (Bool, Waiter?) in
      guard inner.closeDeadline != nil else { return (false, nil) }
      defer { inner.waiter = nil }
      return (true, inner.waiter)
    }
    guard closing else {
      cancel()
      return
    }
    waiter?.resume(throwing: CancellationError())
  }

  func sendPing(onPong: @escaping @Sendable ((any Error)?) -> Void) {
    var random = MaskingKeySource()
    do {
      // Framed and queued under one lock, like `send`: in order, and before the socket closes.
      try inner.withLock { inner throws(WebSocketError) in
        if let finished = inner.finished { throw finished }
        let bytes = try inner.machine.ping(maskingKeys: &random)
        inner.pongWaiters.append(onPong)
        enqueue(bytes, inner: &inner) { [self] error in
          guard let error else { return }
          perform(advance { $0.machine.fail(error as? WebSocketError ?? .socket("\(error)")) })
        }
      }
    } catch {
      onPong(error)
    }
  }

  func close() { close(code: 1000, reason: "") }

  func close(code: UInt16, reason: String) {
    precondition(
      code == 1000 || (3000...4999).contains(code),
      "close code \(code): a client closes with 1000 or an application code 3000–4999")
    var random = MaskingKeySource()
    let closedByClient = WebSocketError.closed(
      code: code, reason: "closed by the client" + (reason.isEmpty ? "" : ": \(reason)"))
    // The close frame is queued after the messages already queued (a close frame ends the
    // stream), in the same critical section as the transition.
    let outputs = advance { inner in
      inner.closeDeadline = .now + configuration.closeTimeout
      let outputs = inner.machine.close(code: code, reason: reason, maskingKeys: &random)
      // Recorded before the close frame is written: the server's echo, read meanwhile,
      // must not replace the reason this socket ends with. (A held end, the server's close
      // or a bad frame, finishes with its own error: `advance` records it.)
      if inner.finished == nil && inner.machine.outcome == nil {
        inner.finished = closedByClient
      }
      return outputs
    }
    // Small and rare: the wait is for the queued writes and the close frame alone. Not on the
    // reader thread (a job of the socket's task executor): a queued write waiting for a peer
    // that waits for this thread to read would never end; the thread drains the queue before
    // it closes the socket anyway.
    if readerThread.load(ordering: .relaxed) != CurrentThread.id { writes.sync {} }
    perform(outputs)
    if !outputs.contains(where: \.isFinished) { finish(closedByClient) }
  }

  var subprotocol: String? { inner.withLock { $0.machine.subprotocol } }

  var taskExecutor: (any TaskExecutor)? { executor }

  /// Whether the calling thread is this socket's reader thread (for tests).
  var isOnReaderThread: Bool { readerThread.load(ordering: .relaxed) == CurrentThread.id }

  /// How many times a job from another thread woke the reader's poll (for tests).
  var executorWakeUps: Int { executor?.wakeUps ?? 0 }

  func closure() async -> RealtimeClosure? {
    await withCheckedContinuation { (continuation: CheckedContinuation<RealtimeClosure?, Never>) in
      let closure = inner.withLock { inner -> RealtimeClosure? in
        if let closure = inner.closure { return closure }
        inner.closureWaiters.append(continuation)
        return nil
      }
      if let closure { continuation.resume(returning: closure) }
    }
  }

  /// Task cancellation: stop now, no closing handshake.
  func cancel() {
    cancelled.store(true, ordering: .releasing)
    descriptor.withLock { fd in
      // Wakes a blocked poll at once; the reader thread closes the descriptor.
      if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
    perform(advance { $0.machine.fail(.closed(code: nil, reason: "cancelled")) })
  }

  // MARK: The thread

  func run(host: String, port: Int, opened: CheckedContinuation<Void, any Error>) {
    let deadline = ContinuousClock.now + configuration.connectTimeout
    var continuation: CheckedContinuation<Void, any Error>? = opened
    readerThread.store(CurrentThread.id, ordering: .relaxed)
    do {
      let fd = try dial(host: host, port: port, deadline: deadline)
      descriptor.withLock { $0 = fd }
      if let tls { try handshakeTLS(tls, fd: fd, deadline: deadline) }
      let request = inner.withLock { $0.machine.handshake.request }
      try write(request, deadline: deadline)
      // 256 KiB: a 16 MiB message is 64 reads (and lock round trips), not 256.
      let readSize = 256 * 1024
      var buffer = [UInt8](repeating: 0, count: readSize)
      while true {
        // The task executor's jobs (tasks resumed by the last read, or sent here by other
        // threads) run first: what they did (a send, a close) is in the state read next.
        executor?.runJobs()
        // One critical section per read for everything the loop looks at.
        let (state, opened, finished, idleDeadline, closeDeadline, heldEndDeadline) =
          inner.withLock { inner in
            (
              inner.machine.state, inner.opened, inner.finished,
              configuration.idleTimeout.map { inner.lastRead + $0 }, inner.closeDeadline,
              inner.heldEndDeadline
            )
          }
        if opened, let waiting = continuation {
          // Opened first: connect returns the socket; a close in the same read is for receive.
          waiting.resume()
          continuation = nil
        }
        if let finished {
          // The client's own close finishes the socket for its callers at once; the thread
          // goes on reading until the server's close frame completes the handshake (or the
          // close timeout passes).
          if opened && state != .closing { break }
          if !opened { throw finished }
        }
        if state == .closed { break }
        let now = ContinuousClock.now
        if state == .handshaking, now >= deadline { throw WebSocketError.connectTimedOut }
        if state == .open, let idleDeadline, now >= idleDeadline {
          throw WebSocketError.idleTimedOut
        }
        if let closeDeadline, now >= closeDeadline { break }
        if let heldEndDeadline, now >= heldEndDeadline {
          // The application did not ask for its messages in time: end the connection anyway.
          var random = MaskingKeySource()
          perform(advance { $0.machine.messagesConsumed(maskingKeys: &random) })
          continue
        }
        // The earliest deadline, without building arrays per read.
        func earlier(
          _ one: ContinuousClock.Instant?, _ other: ContinuousClock.Instant?
        ) -> ContinuousClock.Instant? {
          guard let one, let other else { return one ?? other }
          return min(one, other)
        }
        let limit = earlier(
          earlier(state == .handshaking ? deadline : nil, idleDeadline),
          earlier(closeDeadline, heldEndDeadline))
        if let executor {
          // Jobs that arrived since they last ran go first; from here on one wakes the poll.
          guard executor.willPoll() else { continue }
          var woken = false
          let readable: Bool
          do {
            readable = try waitFor(
              Int16(POLLIN), fd: fd, until: limit, wake: executor.wakeDescriptor, woken: &woken)
          } catch {
            executor.didPoll(woken: false)
            throw error
          }
          executor.didPoll(woken: woken)
          guard readable else { continue }
        } else {
          guard try waitFor(Int16(POLLIN), fd: fd, until: limit) else { continue }
        }
        if tls == nil, let direct = readIntoMessage(fd: fd) {
          // The rest of a large message went straight into its storage.
          if direct.count > 0 { continue }
          if direct.count == 0 {
            perform(
              advance {
                $0.machine.fail(.closed(code: nil, reason: "the server closed the TCP connection"))
              })
            break
          }
          if direct.error == EINTR || direct.error == EAGAIN || direct.error == EWOULDBLOCK {
            continue
          }
          throw WebSocketError.socket("recv: \(String(cString: strerror(direct.error)))")
        }
        // The decoder hands back its previous buffer: replaced when smaller than a read, or
        // much larger (it grew for a large frame), so the two do not both stay large.
        if buffer.count < readSize || buffer.count > 4 * readSize {
          buffer = [UInt8](repeating: 0, count: readSize)
        }
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 {
          if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
          throw WebSocketError.socket("recv: \(String(cString: strerror(errno)))")
        }
        if count == 0 {
          perform(
            advance {
              $0.machine.fail(.closed(code: nil, reason: "the server closed the TCP connection"))
            })
          break
        }
        var plaintext: [UInt8] = []
        var serverEndedTLS = false
        if let tls {
          serverEndedTLS = try tls.withLock { session throws(WebSocketError) in
            try session.feed(buffer[..<count])
            return try session.decrypt(into: &plaintext)
          }
          // Rare (alerts, key update answers): reading produced records to send.
          if tls.withLock({ $0.hasOutput }) { try flushTLS(tls, deadline: nil) }
        }
        var random = MaskingKeySource()
        let outputs = advance { inner in
          inner.lastRead = .now
          let outputs: [WebSocketConnectionMachine.Output]
          if tls != nil {
            outputs =
              plaintext.isEmpty ? [] : inner.machine.received(plaintext, maskingKeys: &random)
          } else {
            // The bytes stay where they were read when they start a frame: the decoder takes
            // this array and hands back its previous one for the next read.
            outputs = inner.machine.received(
              swapping: &buffer, count: count, maskingKeys: &random)
          }
          if inner.machine.holdsEnd && inner.heldEndDeadline == nil {
            inner.heldEndDeadline = .now + configuration.closeTimeout
          }
          return outputs
        }
        perform(outputs)
        if serverEndedTLS {
          perform(
            advance {
              $0.machine.fail(.closed(code: nil, reason: "the server ended the TLS session"))
            })
          break
        }
      }
    } catch {
      let failure: any Error =
        cancelled.load(ordering: .acquiring)
        ? CancellationError() : (error as? WebSocketError ?? .socket("\(error)"))
      perform(
        advance {
          $0.machine.fail(failure as? WebSocketError ?? .closed(code: nil, reason: "cancelled"))
        })
      continuation?.resume(throwing: failure)
      continuation = nil
    }
    if let continuation {
      // Finished before opening (e.g. a close() during the handshake).
      continuation.resume(throwing: inner.withLock { $0.finished } ?? .connectTimedOut)
    }
    // From here the thread only drains writes and closes: the executor's jobs go elsewhere.
    executor?.end()
    // The machine is closed, so every frame it made is queued: a close frame (the echo of
    // the server's, or the client's 1002/1007/1009) is written before the socket closes.
    // Bounded: a peer that stops reading cannot hold the thread past the close timeout.
    let drained = DispatchSemaphore(value: 0)
    writes.async { drained.signal() }
    let wait = configuration.closeTimeout.components
    let waitMilliseconds = Int(wait.seconds) * 1000 + Int(wait.attoseconds / 1_000_000_000_000_000)
    if drained.wait(timeout: .now() + .milliseconds(max(0, waitMilliseconds))) == .timedOut {
      writesAbandoned.store(true, ordering: .releasing)
    }
    descriptor.withLock { fd in
      if fd >= 0 {
        if let tls {
          // A courtesy, not waited for: one non-blocking send of the TLS close_notify.
          let goodbye = tls.withLock { $0.closeNotify() }
          if !goodbye.isEmpty {
            _ = goodbye.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, sendFlags) }
          }
        }
        _ = Foundation.close(fd)
      }
      fd = -1
    }
    recordClosure()
  }

  /// The thread is over: how the socket ended becomes readable; `closure()` waiters resume
  /// and the control-frame stream finishes.
  private func recordClosure() {
    let (closure, waiters) = inner.withLock { inner in
      let machine = inner.machine
      let closure = RealtimeClosure(
        code: machine.closeReceived?.code, reason: machine.closeReceived?.reason ?? "",
        sentCode: machine.closeSent?.code,
        wasClean: machine.closeSent != nil && machine.closeReceived != nil,
        error: inner.finished ?? machine.outcome
          ?? .closed(code: nil, reason: "the connection ended"))
      inner.closure = closure
      defer { inner.closureWaiters = [] }
      return (closure, inner.closureWaiters)
    }
    for waiter in waiters { waiter.resume(returning: closure) }
    controlContinuation?.finish()
  }

  /// Runs the TLS handshake over the dialed socket until it completes, fails, or `deadline`
  /// passes (``WebSocketError/connectTimedOut``).
  private func handshakeTLS(
    _ tls: Locked<TLSSession>, fd: Int32, deadline: ContinuousClock.Instant
  ) throws {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let done: Bool
      do {
        done = try tls.withLock { session throws(WebSocketError) in try session.handshake() }
      } catch {
        // The alert telling the server why is a courtesy; the handshake error is the news.
        try? flushTLS(tls, deadline: deadline)  // try?: see above
        throw error
      }
      try flushTLS(tls, deadline: deadline)
      if done { return }
      if ContinuousClock.now >= deadline { throw WebSocketError.connectTimedOut }
      guard try waitFor(Int16(POLLIN), fd: fd, until: deadline) else { continue }
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
        throw WebSocketError.socket("recv: \(String(cString: strerror(errno)))")
      }
      if count == 0 {
        let host = tls.withLock { $0.host }
        throw WebSocketError.tls(
          host: host, reason: "the server closed the connection during the TLS handshake")
      }
      try tls.withLock { session throws(WebSocketError) in
        try session.feed(buffer[..<count])
      }
    }
  }

  /// Sends the ciphertext the TLS session has waiting, in order with frame writes.
  private func flushTLS(_ tls: Locked<TLSSession>, deadline: ContinuousClock.Instant?) throws {
    try descriptor.withLock { fd throws in
      guard fd >= 0 else { throw WebSocketError.socket("send: not connected") }
      let bytes = tls.withLock { $0.takeOutput() }
      try sendAll(bytes, fd: fd, deadline: deadline)
    }
  }

  /// Performs the machine's outputs: writes, deliveries, pong callbacks, the end.
  private func perform(_ outputs: [WebSocketConnectionMachine.Output]) {
    for output in outputs {
      switch output {
      case .opened: inner.withLock { $0.opened = true }
      case .finished: break
      case .write: break  // queued by `advance`
      case .message:
        // Already in the inbox (`advance` put it there with the step that made it): hand the
        // oldest message to a waiting `receive`, if one waits.
        typealias Delivery = (CheckedContinuation<RealtimeMessage, any Error>, RealtimeMessage)
        let delivery = inner.withLock { inner -> Delivery? in
          guard let waiter = inner.waiter, !inner.inbox.isEmpty else { return nil }
          inner.waiter = nil
          return (waiter, inner.inbox.removeFirst())
        }
        if let (waiter, message) = delivery { waiter.resume(returning: message) }
      case .ping(let payload):
        controlContinuation?.yield(.ping(payload))
      case .pong(let payload):
        let callback = inner.withLock { inner -> (@Sendable ((any Error)?) -> Void)? in
          inner.pongWaiters.isEmpty ? nil : inner.pongWaiters.removeFirst()
        }
        callback?(nil)
        controlContinuation?.yield(.pong(payload))
      }
    }
    for case .finished(let error) in outputs { finish(error) }
  }

  /// Runs `step` on the machine under the lock and, in the same critical section, puts the
  /// messages it decoded in the inbox, records the end it reached (the first end wins: an end
  /// of stream read later cannot replace the server's close) and queues the frames it made on
  /// `writes`, in the order they were made and after any message framed before them. The
  /// reader thread closes the socket only after the queue drains, so a close frame made here
  /// is written first. Returns the outputs for ``perform(_:)``.
  ///
  /// The inbox is filled here, not in `perform`: `receive` reads "the inbox is empty" as "the
  /// application has taken every message" and releases an end held for them
  /// (`messagesConsumed`). A message the machine had output but `perform` had not yet put in
  /// the inbox was then lost: two valid messages, then invalid UTF-8, and the application
  /// received only the first before the client closed with 1007.
  private func advance(
    _ step: (inout Inner) -> [WebSocketConnectionMachine.Output]
  ) -> [WebSocketConnectionMachine.Output] {
    inner.withLock { inner in
      let outputs = step(&inner)
      for case .message(let message) in outputs { inner.inbox.append(message) }
      if inner.finished == nil, let outcome = inner.machine.outcome { inner.finished = outcome }
      for case .write(let bytes) in outputs {
        enqueue(bytes, inner: &inner) { [self] error in
          guard let error else { return }
          perform(advance { $0.machine.fail(error as? WebSocketError ?? .socket("\(error)")) })
        }
      }
      return outputs
    }
  }

  /// The most one read straight into a message's storage takes (the `inner` lock is held
  /// for it, so `send` waits at most one such copy).
  static let directReadLimit = 1 << 20

  /// While a large message arrives in parts, reads its next bytes straight into its storage
  /// (no copy through the read buffer) and performs what that produced; nil when no such
  /// message is arriving. `count` is recv's, `error` its errno when it failed.
  private func readIntoMessage(fd: Int32) -> (count: Int, error: Int32)? {
    var random = MaskingKeySource()
    var result: (count: Int, error: Int32)?
    let outputs = advance { inner in
      // Under the lock (the message lives in the machine): a non-blocking read of at most
      // `directReadLimit` bytes.
      let received = inner.machine.receivedIntoMessage(
        limit: Self.directReadLimit, maskingKeys: &random
      ) { space in
        let count = recv(fd, space.baseAddress, space.count, 0)
        result = (count, count < 0 ? errno : 0)
        return count
      }
      guard let received else { return [] }
      if received.count > 0 { inner.lastRead = .now }
      if inner.machine.holdsEnd && inner.heldEndDeadline == nil {
        inner.heldEndDeadline = .now + configuration.closeTimeout
      }
      return received.outputs
    }
    perform(outputs)
    return result
  }

  /// Messages of at least this many payload bytes are written in chunks
  /// (``WebSocketOutgoingMessage``) rather than framed whole.
  static let streamedSize = 1 << 20
  /// The chunk a streamed message is framed and masked in.
  static let streamedChunk = 256 << 10

  private static func payloadCount(_ message: RealtimeMessage) -> Int {
    switch message {
    case .text(let text): text.utf8.count
    case .data(let data): data.count
    }
  }

  /// Queues a streamed message on `writes`, like ``enqueue(_:from:inner:done:)``.
  private func enqueue(
    _ outgoing: WebSocketOutgoingMessage, inner: inout Inner,
    done: @escaping @Sendable ((any Error)?) -> Void
  ) {
    inner.queuedWrites += 1
    writes.async { [self] in
      var failure: (any Error)?
      do {
        try descriptor.withLock { fd throws in
          guard fd >= 0 else { throw WebSocketError.socket("send: not connected") }
          try outgoing.write(chunkSize: Self.streamedChunk) { chunk in
            try sendAll(chunk, fd: fd, deadline: nil)
          }
        }
      } catch {
        failure = error
      }
      self.inner.withLock { $0.queuedWrites -= 1 }
      done(failure)
    }
  }

  /// Queues `bytes[start...]` on `writes`; `done` runs on the queue after the write, with its
  /// error if it failed. Call under the `inner` lock, so frames are queued in the order they
  /// were made and `queuedWrites` counts them before anyone looks.
  private func enqueue(
    _ bytes: [UInt8], from start: Int = 0, inner: inout Inner,
    done: @escaping @Sendable ((any Error)?) -> Void
  ) {
    inner.queuedWrites += 1
    writes.async { [self] in
      var failure: (any Error)?
      do { try write(bytes, from: start) } catch { failure = error }
      self.inner.withLock { $0.queuedWrites -= 1 }
      done(failure)
    }
  }

  /// Records the end once; fails a waiting reader and outstanding pings.
  private func finish(_ error: WebSocketError) {
    let (waiter, pings) = inner.withLock { inner in
      if inner.finished == nil { inner.finished = error }
      let waiter = inner.waiter
      let pings = inner.pongWaiters
      inner.waiter = nil
      inner.pongWaiters = []
      return (waiter, pings)
    }
    let reported = inner.withLock { $0.finished } ?? error
    waiter?.resume(throwing: reported)
    for ping in pings { ping(reported) }
  }

  // MARK: Sockets

  private func write(
    _ bytes: [UInt8], from start: Int = 0, deadline: ContinuousClock.Instant? = nil
  ) throws {
    try descriptor.withLock { fd throws in
      guard fd >= 0 else { throw WebSocketError.socket("send: not connected") }
      guard let tls else {
        try sendAll(bytes, from: start, fd: fd, deadline: deadline)
        return
      }
      // Encrypted under the write lock, so records go out in the order they were made.
      let records = try tls.withLock { session throws(WebSocketError) in
        try session.encrypt(start == 0 ? bytes : Array(bytes[start...]))
        return session.takeOutput()
      }
      try sendAll(records, fd: fd, deadline: deadline)
    }
  }

  /// Writes as much of `bytes` as the socket takes without waiting; returns how much. For
  /// `send`'s own thread, only while nothing is queued (so no queued write holds the
  /// descriptor, and its lock is at most a moment's wait).
  private func writeAvailable(_ bytes: [UInt8]) throws(WebSocketError) -> Int {
    try descriptor.withLock { fd throws(WebSocketError) in
      guard fd >= 0 else { throw WebSocketError.socket("send: not connected") }
      var offset = 0
      while offset < bytes.count {
        let sent = bytes.withUnsafeBytes {
          Foundation.send(fd, $0.baseAddress! + offset, bytes.count - offset, sendFlags)
        }
        if sent >= 0 {
          offset += sent
        } else if errno == EINTR {
          continue
        } else if errno == EAGAIN || errno == EWOULDBLOCK {
          break
        } else {
          throw WebSocketError.socket("send: \(String(cString: strerror(errno)))")
        }
      }
      return offset
    }
  }

  /// Sends `bytes[start...]` on `fd`, polling when the socket is full. Call with `descriptor`
  /// held.
  private func sendAll(
    _ bytes: [UInt8], from start: Int = 0, fd: Int32, deadline: ContinuousClock.Instant?
  ) throws {
    try bytes.withUnsafeBytes { all in
      try sendAll(UnsafeRawBufferPointer(rebasing: all[start...]), fd: fd, deadline: deadline)
    }
  }

  /// Sends all of `bytes` on `fd`, polling when the socket is full. Call with `descriptor`
  /// held.
  private func sendAll(
    _ bytes: UnsafeRawBufferPointer, fd: Int32, deadline: ContinuousClock.Instant?
  ) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = Foundation.send(fd, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
      if sent >= 0 {
        offset += sent
      } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
        if writesAbandoned.load(ordering: .acquiring) {
          throw WebSocketError.socket("send: abandoned (the peer stopped reading)")
        }
        _ = try waitFor(Int16(POLLOUT), fd: fd, until: deadline ?? .now + .seconds(10))
      } else {
        throw WebSocketError.socket("send: \(String(cString: strerror(errno)))")
      }
    }
  }

  /// Polls `fd` for `events` in slices of at most 100 ms until `until`; false on timeout or
  /// a slice that saw nothing. Throws on cancellation.
  private func waitFor(_ events: Int16, fd: Int32, until: ContinuousClock.Instant?) throws -> Bool {
    var woken = false
    return try waitFor(events, fd: fd, until: until, wake: -1, woken: &woken)
  }

  /// ``waitFor(_:fd:until:)``, also returning early when `wake` (a descriptor, or -1 for
  /// none) is readable, which sets `woken`; the result is whether `fd` itself is ready.
  private func waitFor(
    _ events: Int16, fd: Int32, until: ContinuousClock.Instant?, wake: Int32, woken: inout Bool
  ) throws -> Bool {
    if cancelled.load(ordering: .acquiring) { throw CancellationError() }
    var timeout = 100
    if let until {
      let left = until - .now
      let ms = Int(
        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
      timeout = max(0, min(timeout, ms + 1))
    }
    // A negative descriptor is ignored by poll (POSIX).
    var entries = (
      pollfd(fd: fd, events: events, revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
    )
    let ready = withUnsafeMutableBytes(of: &entries) {
      poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), wake >= 0 ? 2 : 1, Int32(timeout))
    }
    if ready < 0 {
      if errno == EINTR { return false }
      throw WebSocketError.socket("poll: \(String(cString: strerror(errno)))")
    }
    if cancelled.load(ordering: .acquiring) { throw CancellationError() }
    woken = entries.1.revents != 0
    return entries.0.revents != 0
  }

  private func dial(host: String, port: Int, deadline: ContinuousClock.Instant) throws -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamSocketType
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw WebSocketError.socket("getaddrinfo \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(first) }
    var lastError = "no address for \(host)"
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let info = next {
      next = info.pointee.ai_next
      let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      if fd < 0 {
        lastError = "socket: \(String(cString: strerror(errno)))"
        continue
      }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      // Frames are written whole: Nagle's algorithm would only hold a message's last segment
      // back until the previous one is acknowledged.
      var noDelay: Int32 = 1
      _ = setsockopt(
        fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
      #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #endif
      if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
      guard errno == EINPROGRESS else {
        lastError = "connect: \(String(cString: strerror(errno)))"
        _ = Foundation.close(fd)
        continue
      }
      var refusal: Int32 = 0
      do {
        while ContinuousClock.now < deadline {
          guard try waitFor(Int16(POLLOUT), fd: fd, until: deadline) else { continue }
          var length = socklen_t(MemoryLayout<Int32>.size)
          _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &refusal, &length)
          if refusal == 0 { return fd }
          break
        }
      } catch {
        _ = Foundation.close(fd)
        throw error
      }
      _ = Foundation.close(fd)
      guard refusal != 0 else { throw WebSocketError.connectTimedOut }
      // This address refused (e.g. ::1 for "localhost" when the server listens on 127.0.0.1
      // only): try the next one.
      lastError = "connect: \(String(cString: strerror(refusal)))"
    }
    throw WebSocketError.socket(lastError)
  }
}

/// A `send` whose bytes (or the rest the socket had no room for) wait on the write queue: the
/// queue's job reports here once written, and the send awaits it.
///
/// - Complexity: O(1).
/// - Note: Isolation: thread-safe (its state behind `Locked`); `wait` from one task.
private final class QueuedWrite: Sendable {
  private enum State {
    case pending
    case written((any Error)?)
    case awaited(CheckedContinuation<Void, any Error>)
  }

  private let state = Locked<State>(.pending)

  /// The write finished, with its error if it failed.
  func complete(_ error: (any Error)?) {
    let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      if case .awaited(let continuation) = state {
        state = .written(nil)
        return continuation
      }
      state = .written(error)
      return nil
    }
    guard let waiting else { return }
    if let error { waiting.resume(throwing: error) } else { waiting.resume() }
  }

  /// Returns once written; throws the write's error.
  func wait() async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let result = state.withLock { state -> Result<Void, any Error>? in
        if case .written(let error) = state {
          return error.map { .failure($0) } ?? .success(())
        }
        state = .awaited(continuation)
        return nil
      }
      if let result { continuation.resume(with: result) }
    }
  }
}
