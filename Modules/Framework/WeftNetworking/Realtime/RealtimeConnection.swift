/// A realtime connection that stays up: it dials, reconnects with backoff after drops,
/// declares the connection dead when pings go unanswered, and streams inbound messages.
///
/// ```swift
/// let connection = RealtimeConnection(
///   transport: SimulatedRealtimeTransport(clock: clock, attempts: [...]),
///   policy: ReconnectPolicy(maxAttempts: 5), heartbeat: HeartbeatPolicy(), clock: clock)
/// await connection.connect()
/// for await state in connection.states { … }     // connecting, connected, reconnecting(1), …
/// for await message in connection.messages { … }
/// ```
///
/// Decisions come from ``ConnectionStateMachine``; this actor only carries out its actions:
/// it dials, runs the receive and heartbeat loops of the open socket, and waits out
/// backoffs on the clock. Callbacks from superseded dials and sessions are recognised by a
/// generation number and ignored.
///
/// > Important: ``states`` and ``messages`` are single-consumer streams that buffer
/// > everything (states are few; read messages promptly). They finish when the connection
/// > is deinitialised.
///
/// # Performance
/// One task per dial, two per open session (receive, heartbeat), one per backoff. The
/// heartbeat keeps exactly one clock sleeper at a time.
///
/// - Complexity: O(1) per event.
/// - Note: Isolation: an actor; the loops run in their own tasks and report back to it.
/// - Note: Allocations: the tasks above, and one stream element per state change and per
///   message.
public actor RealtimeConnection {
  private let transport: any RealtimeTransport
  private let heartbeat: HeartbeatPolicy?
  private let clock: any Clock<Duration>
  private var machine: ConnectionStateMachine
  private var socket: (any RealtimeSocket)?
  private var generation = 0
  private var work: [Task<Void, Never>] = []
  private let stateContinuation: AsyncStream<ConnectionState>.Continuation
  private let messageContinuation: AsyncStream<RealtimeMessage>.Continuation
  private let controlContinuation: AsyncStream<RealtimeControlFrame>.Continuation
  private let closureContinuation: AsyncStream<RealtimeClosure>.Continuation
  /// The code and reason the next close of the socket sends.
  private var closeCode: (code: UInt16, reason: String) = (1000, "")

  /// Every state change, in order (not the initial `.disconnected`).
  public nonisolated let states: AsyncStream<ConnectionState>
  /// Every inbound message, in order, across reconnects.
  public nonisolated let messages: AsyncStream<RealtimeMessage>
  /// The server's pings and pongs across reconnects, when the transport reports them
  /// (``WebSocketConfiguration/observesControlFrames``); keeps the newest 256 unread.
  public nonisolated let controlFrames: AsyncStream<RealtimeControlFrame>
  /// How each socket ended (code, reason, clean or not), in order, for transports that can
  /// tell (``POSIXWebSocketTransport``); ``lastClosure`` is the latest.
  public nonisolated let closures: AsyncStream<RealtimeClosure>
  /// How the most recent socket ended, once it has.
  public private(set) var lastClosure: RealtimeClosure?

  /// Makes a disconnected connection; `seed` fixes the reconnect jitter.
  public init(
    transport: any RealtimeTransport, policy: ReconnectPolicy = ReconnectPolicy(),
    heartbeat: HeartbeatPolicy? = HeartbeatPolicy(),
    clock: any Clock<Duration> = ContinuousClock(), seed: UInt64 = 0
  ) {
    self.transport = transport
    self.heartbeat = heartbeat
    self.clock = clock
    self.machine = ConnectionStateMachine(policy: policy, random: SeededRandom(seed: seed))
    (states, stateContinuation) = AsyncStream.makeStream()
    (messages, messageContinuation) = AsyncStream.makeStream()
    (controlFrames, controlContinuation) = AsyncStream.makeStream(
      bufferingPolicy: .bufferingNewest(256))
    (closures, closureContinuation) = AsyncStream.makeStream()
  }

  deinit {
    for task in work { task.cancel() }
    socket?.close()
    stateContinuation.finish()
    messageContinuation.finish()
    controlContinuation.finish()
    closureContinuation.finish()
  }

  /// The current state.
  public var state: ConnectionState { machine.state }

  /// The most recent failure (kept while reconnecting), if any.
  public var lastError: ConnectionError? { machine.lastError }

  /// Starts connecting; does nothing unless disconnected or failed.
  public func connect() { handle(.connectRequested, generation: generation) }

  /// Closes the socket (close code 1000) and stops reconnecting.
  public func disconnect() { disconnect(code: 1000, reason: "") }

  /// Closes the socket with `code` and `reason` (1000, or an application's own 3000–4999)
  /// and stops reconnecting.
  ///
  /// - Complexity: O(1); the closing handshake completes in the background (``closures``).
  public func disconnect(code: UInt16, reason: String) {
    closeCode = (code, reason)
    handle(.disconnectRequested, generation: generation)
    closeCode = (1000, "")
  }

  /// The subprotocol the server chose on the open socket, nil for none or when not open.
  public var subprotocol: String? { socket?.subprotocol }

  /// Sends `message` on the open socket.
  ///
  /// - Throws: ``ConnectionError/notConnected(_:)`` unless connected;
  ///   ``ConnectionError/dropped(_:)`` if the socket fails while sending.
  public func send(_ message: RealtimeMessage) async throws(ConnectionError) {
    guard case .connected = machine.state, let socket else {
      throw .notConnected(machine.state)
    }
    do {
      try await socket.send(message)
    } catch {
      throw .dropped("send failed: \(error)")
    }
  }

  // MARK: - Carrying out the machine's actions

  private func handle(_ event: ConnectionStateMachine.Event, generation: Int) {
    guard generation == self.generation else { return }
    let before = machine.state
    let action = machine.handle(event)
    perform(action)
    if machine.state != before { stateContinuation.yield(machine.state) }
  }

  private func perform(_ action: ConnectionStateMachine.Action) {
    switch action {
    case .none:
      break
    case .open:
      let current = stopAll()
      let transport = self.transport
      work = [
        Task { [weak self] in
          do {
            let socket = try await transport.connect()
            await self?.opened(socket, generation: current) ?? socket.close()
          } catch {
            let failure = error as? ConnectionError ?? .refused("\(error)")
            await self?.handle(.openFailed(failure), generation: current)
          }
        }
      ]
    case .startSession:
      startSession()
    case .scheduleReconnect(let delay):
      let current = stopAll()
      let clock = self.clock
      work = [
        Task { [weak self] in
          do {
            // No delay, no sleep: a zero-length sleep on a TestClock waits for an advance.
            if delay > .zero { try await clock.sleep(for: delay) }
            try Task.checkCancellation()
          } catch {
            return
          }
          await self?.handle(.reconnectDelayElapsed, generation: current)
        }
      ]
    case .close:
      stopAll()
    }
  }

  private func opened(_ socket: any RealtimeSocket, generation: Int) {
    guard generation == self.generation, machine.state != .connected else {
      socket.close()
      return
    }
    self.socket = socket
    handle(.opened, generation: generation)
    if machine.state != .connected {
      socket.close()
      self.socket = nil
    }
  }

  /// Closes the socket (its closing handshake), cancels every task, and starts a new
  /// generation (returned).
  @discardableResult
  private func stopAll() -> Int {
    // Close first: cancelling the receive loop first makes a socket shut down at once, and
    // the closing handshake (a 1000 close frame) was never sent. The loop's error reaches
    // this actor after `generation` moved on below, so it is dropped.
    if let socket {
      socket.close(code: closeCode.code, reason: closeCode.reason)
      watchClosure(of: socket)
    }
    socket = nil
    for task in work { task.cancel() }
    work = []
    generation += 1
    return generation
  }

  /// Reports how `socket` ends, whenever it does (after its closing handshake).
  private func watchClosure(of socket: any RealtimeSocket) {
    Task { [weak self] in
      guard let closure = await socket.closure() else { return }
      await self?.record(closure)
    }
  }

  private func record(_ closure: RealtimeClosure) {
    lastClosure = closure
    closureContinuation.yield(closure)
  }

  private func deliver(_ message: RealtimeMessage, generation: Int) {
    guard generation == self.generation else { return }
    messageContinuation.yield(message)
  }
}

extension RealtimeConnection {
  /// The open socket failed or the server closed it: its closure is recorded, then the
  /// machine decides (reconnect or fail).
  private func dropped(_ socket: any RealtimeSocket, error: any Error, generation: Int) {
    guard generation == self.generation else { return }
    if self.socket != nil {
      self.socket = nil
      watchClosure(of: socket)
    }
    handle(.dropped(.dropped("\(error)")), generation: generation)
  }

  /// Starts the receive loop and, if configured, the heartbeat loop on the open socket.
  private func startSession() {
    guard let socket else { return }
    let current = generation
    work.append(
      Task { [weak self] in
        while !Task.isCancelled {
          do {
            let message = try await socket.receive()
            await self?.deliver(message, generation: current)
          } catch {
            if Task.isCancelled { return }
            await self?.dropped(socket, error: error, generation: current)
            return
          }
        }
      })
    let control = controlContinuation
    work.append(
      Task {
        for await frame in socket.controlFrames { control.yield(frame) }
      })
    guard let heartbeat else { return }
    let clock = self.clock
    work.append(
      Task { [weak self] in
        while !Task.isCancelled {
          do {
            try await clock.sleep(for: heartbeat.interval)
            let pong = PongFlag()
            socket.sendPing { error in if error == nil { pong.set() } }
            try await clock.sleep(for: heartbeat.timeout)
            guard pong.isSet else {
              await self?.handle(
                .heartbeatTimedOut(after: heartbeat.timeout), generation: current)
              return
            }
          } catch {
            return
          }
        }
      })
  }
}
