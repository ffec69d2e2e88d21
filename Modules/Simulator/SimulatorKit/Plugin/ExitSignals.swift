import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a cleanup when SIGINT or SIGTERM arrives, then exits with 128 + the signal number
/// (130, 143), on a thread of its own that sleeps in `read(2)` until then.
///
/// Not a Dispatch signal source: one of those keeps a libdispatch worker thread that wakes
/// and allocates on its own schedule, which made a deterministic run's allocation counts
/// vary by a few per flow. Here the signal handler only writes the signal number to a pipe
/// (async-signal-safe); the watcher thread, made once, wakes only for it.
///
/// - Note: Isolation: any; `install` once per process (later calls do nothing).
/// - Complexity: O(1) to install; the cleanup's cost when a signal arrives.
enum ExitSignals {
  /// The pipe's write end, for the handler (a lock-free atomic: safe in a signal handler).
  private static let writeEnd = Atomic<Int32>(-1)
  /// Set by the watcher once it runs: `install` waits for it, so whatever the new thread
  /// allocates while it starts (glibc and the Swift runtime set up its thread-local storage
  /// lazily, with malloc) is counted before the run, not in whichever step is measuring when
  /// a loaded machine gets round to scheduling it.
  private static let watcherRunning = Atomic<Bool>(false)

  /// Installs the handlers and the watcher thread; `cleanup` runs on the watcher thread.
  ///
  /// - Returns: false when the pipe or the thread cannot be made (signals then end the
  ///   process as they would by default, without the cleanup).
  @discardableResult
  static func install(_ cleanup: @escaping @Sendable () -> Void) -> Bool {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return false }
    guard
      writeEnd.compareExchange(expected: -1, desired: ends[1], ordering: .acquiringAndReleasing)
        .exchanged
    else {
      close(ends[0])
      close(ends[1])
      return true
    }
    let readEnd = ends[0]
    // A parent may have started this process with the signals blocked (the mask is
    // inherited across exec; a test runner's `Process` does): unblocked here, on the thread
    // that makes the watcher, so the watcher inherits the unblocked mask and takes them.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    let started = WatcherThread.start {
      ExitSignals.watcherRunning.store(true, ordering: .releasing)
      var signo: UInt8 = 0
      while read(readEnd, &signo, 1) != 1 {
        if errno != EINTR { return }  // the pipe broke: nothing will arrive any more
      }
      cleanup()
      fflush(nil)
      _exit(128 + Int32(signo))
    }
    guard started else { return false }
    while !watcherRunning.load(ordering: .acquiring) { sched_yield() }
    for signo in [SIGINT, SIGTERM] {
      signal(signo, ExitSignals.handler)
    }
    return true
  }

  /// The first signal received (0: none), set by the handler before it wakes the watcher.
  private static let received = Atomic<Int32>(0)

  /// Called where the process would exit on its own: when a signal has arrived, the watcher
  /// is already cleaning up and will exit with 128 + its number, so this waits for it rather
  /// than exit with a code the signal caused (an interrupted call's error, say).
  ///
  /// - Complexity: O(1) when no signal arrived; otherwise it does not return.
  static func yieldToPendingExit() {
    guard received.load(ordering: .acquiring) != 0 else { return }
    while true { pause() }
  }

  /// The signal handler: records the signal and writes its number to the pipe, nothing else
  /// (a lock-free atomic store and `write` are async-signal-safe).
  private static let handler: @convention(c) (Int32) -> Void = { signo in
    _ = ExitSignals.received.compareExchange(
      expected: 0, desired: signo, ordering: .acquiringAndReleasing)
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = write(ExitSignals.writeEnd.load(ordering: .relaxed), &byte, 1)
  }

  /// A detached POSIX thread running `body`.
  private enum WatcherThread {
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
      let box = Unmanaged.passRetained(Body(body)).toOpaque()
      #if canImport(Darwin)
      var thread: pthread_t?
      #else
      var thread = pthread_t()
      #endif
      let result = pthread_create(
        &thread, nil,
        { argument in
          #if canImport(Darwin)
          let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
          #else
          let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
          #endif
          body.run()
          return nil
        }, box)
      guard result == 0 else {
        Unmanaged<Body>.fromOpaque(box).release()
        return false
      }
      #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
      #else
      pthread_detach(thread)
      #endif
      return true
    }
  }

  /// The thread's body, passed through `pthread_create`'s context pointer.
  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}
